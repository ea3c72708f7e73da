package dev.keyhaven.server.custody;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import dev.keyhaven.crypto.bundle.TurnkeyHpke;
import dev.keyhaven.server.tx.Tx;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;

/**
 * HPKE (Turnkey's profile: P-256, HKDF-SHA256, AES-256-GCM) for features that receive messages: a fresh target key
 * whose private half leaves only sealed under the KEK, opening a message sent to it, and sealing a message to a
 * client's key. Opening is allowed only for purposes whose plaintext is a message (an OTP attempt), never for import
 * targets, whose plaintext is key material and stays in {@link KeyTransfer}.
 */
public final class HpkeTargets {
    private static final Set<SealPurpose> MESSAGE_TARGETS = EnumSet.of(SealPurpose.OTP_TARGET);
    private static final HexFormat HEX = HexFormat.of();

    private final KeySealer sealer;
    private final SecureRandom random;

    public HpkeTargets(KeySealer sealer, SecureRandom random) {
        this.sealer = sealer;
        this.random = random;
    }

    /** A target key: its public key (65-byte uncompressed SEC1, hex) and its private key sealed for its resource. */
    public record Target(String publicKeyHex, SealedSecret sealedKey) {}

    /** A fresh P-256 target key sealed for {@code resourceId} of {@code organizationId}. */
    public Target newTarget(Tx tx, SealPurpose purpose, String organizationId, String resourceId) {
        requireMessageTarget(purpose);
        try (SecretBytes key = KeyCurve.P256.generatePrivateKey(random)) {
            return new Target(
                    HEX.formatHex(EcCurve.P256.decompress(KeyCurve.P256.publicKey(key))),
                    sealer.seal(tx, purpose, organizationId, resourceId, key));
        }
    }

    /**
     * The plaintext of a message HPKE-encrypted to a target key; the caller wipes it when done.
     *
     * @throws IllegalArgumentException when it does not open with this key (the message says nothing of the bytes)
     */
    public byte[] open(
            SealPurpose purpose,
            String organizationId,
            String resourceId,
            SealedSecret sealedKey,
            byte[] encappedPublic,
            byte[] ciphertext) {
        requireMessageTarget(purpose);
        try (SecretBytes key = sealer.open(purpose, organizationId, resourceId, sealedKey);
                SecretBytes plain = TurnkeyHpke.open(key, new TurnkeyHpke.Encrypted(encappedPublic, ciphertext))) {
            return plain.apply(SecretKeyAccess.get(), byte[]::clone);
        }
    }

    /**
     * {@code plaintext} HPKE-encrypted to {@code recipientPublicKey} (P-256, uncompressed) as a credential bundle
     * (Base58Check of the compressed encapsulated key and the ciphertext), what {@code @turnkey/crypto}'s
     * {@code decryptCredentialBundle} opens.
     */
    public static String credentialBundle(byte[] recipientPublicKey, byte[] plaintext) {
        try (SecretBytes message = SecretBytes.copyOf(plaintext)) {
            return TurnkeyHpke.seal(recipientPublicKey, message).credentialBundle();
        }
    }

    private static void requireMessageTarget(SealPurpose purpose) {
        if (!MESSAGE_TARGETS.contains(purpose)) {
            throw new IllegalStateException("a " + purpose.label() + " holds key material; it is not opened here");
        }
    }

    @Override
    public String toString() {
        return "HpkeTargets";
    }
}
