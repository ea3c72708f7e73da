package dev.keyhaven.crypto.bundle;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import dev.keyhaven.crypto.address.Base58Text;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.InvalidCipherTextException;
import org.bouncycastle.crypto.hpke.HPKE;
import org.bouncycastle.crypto.hpke.HPKEContext;
import org.bouncycastle.crypto.hpke.HPKEContextWithEncapsulation;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;

/**
 * HPKE exactly as {@code @turnkey/crypto} and Turnkey's enclaves use it: one message per context, {@code info =
 * "turnkey_hpke"}, AAD = the 65-byte uncompressed encapsulated key followed by the 65-byte uncompressed recipient
 * key. Recipient keys may be given compressed (33 bytes) or uncompressed (65); they are decompressed first, because
 * the KEM context and the AAD use the uncompressed form.
 */
public final class TurnkeyHpke {
    private static final byte[] INFO = "turnkey_hpke".getBytes(StandardCharsets.US_ASCII);

    private TurnkeyHpke() {}

    /** The encapsulated (ephemeral) public key, 65 bytes uncompressed, and the ciphertext with its GCM tag. */
    public record Encrypted(byte[] encappedPublic, byte[] ciphertext) {
        public Encrypted {
            encappedPublic = encappedPublic.clone();
            ciphertext = ciphertext.clone();
        }

        @Override
        public byte[] encappedPublic() {
            return encappedPublic.clone();
        }

        @Override
        public byte[] ciphertext() {
            return ciphertext.clone();
        }

        /**
         * The credential bundle of email recovery and read-write sessions: Base58Check of the compressed
         * encapsulated key (33 bytes) followed by the ciphertext.
         */
        public String credentialBundle() {
            byte[] compressed = EcCurve.P256.compress(encappedPublic);
            byte[] payload = Arrays.copyOf(compressed, compressed.length + ciphertext.length);
            System.arraycopy(ciphertext, 0, payload, compressed.length, ciphertext.length);
            return Base58Text.encodeCheck(payload);
        }

        /** Reads a credential bundle back. */
        public static Encrypted ofCredentialBundle(String bundle) {
            byte[] payload = Base58Text.decodeCheck(bundle);
            if (payload.length <= 33) {
                throw new IllegalArgumentException("a credential bundle holds a 33-byte key and a ciphertext");
            }
            return new Encrypted(
                    EcCurve.P256.decompress(Arrays.copyOf(payload, 33)),
                    Arrays.copyOfRange(payload, 33, payload.length));
        }
    }

    /**
     * The 65-byte uncompressed form of a P-256 public key given compressed or uncompressed.
     *
     * @throws IllegalArgumentException when it is neither, or not a point of the curve
     */
    public static byte[] recipientKey(byte[] publicKey) {
        return EcCurve.P256.decompress(publicKey);
    }

    /** Encrypts {@code plaintext} to a P-256 public key (33 or 65 bytes) with a fresh ephemeral key. */
    public static Encrypted seal(byte[] recipientPublicKey, SecretBytes plaintext) {
        byte[] pkR = recipientKey(recipientPublicKey);
        HPKE hpke = hpke();
        HPKEContextWithEncapsulation context = hpke.setupBaseS(hpke.deserializePublicKey(pkR), INFO);
        byte[] enc = context.getEncapsulation();
        byte[] ciphertext = plaintext.apply(SecretKeyAccess.get(), plain -> {
            try {
                return context.seal(aad(enc, pkR), plain);
            } catch (InvalidCipherTextException e) {
                throw new IllegalStateException("HPKE sealing failed", e);
            }
        });
        return new Encrypted(enc, ciphertext);
    }

    /**
     * Decrypts a message sealed to the P-256 key whose 32-byte scalar {@code recipientPrivateKey} holds. The caller
     * closes the result.
     *
     * @throws IllegalArgumentException when the bundle does not open with that key (wrong key, tampered data)
     */
    public static SecretBytes open(SecretBytes recipientPrivateKey, Encrypted encrypted) {
        byte[] enc = recipientKey(encrypted.encappedPublic);
        return recipientPrivateKey.apply(SecretKeyAccess.get(), d -> {
            HPKE hpke = hpke();
            byte[] pkR = new FixedPointCombMultiplier()
                    .multiply(EcCurve.P256.domain().getG(), new BigInteger(1, d))
                    .normalize()
                    .getEncoded(false);
            AsymmetricCipherKeyPair recipient = hpke.deserializePrivateKey(d, pkR);
            try {
                HPKEContext context = hpke.setupBaseR(enc, recipient, INFO);
                return SecretBytes.adopt(context.open(aad(enc, pkR), encrypted.ciphertext));
            } catch (InvalidCipherTextException | RuntimeException e) {
                throw new IllegalArgumentException("the encrypted bundle does not open with this key");
            }
        });
    }

    private static HPKE hpke() {
        return new HPKE(HPKE.mode_base, HPKE.kem_P256_SHA256, HPKE.kdf_HKDF_SHA256, HPKE.aead_AES_GCM256);
    }

    private static byte[] aad(byte[] enc, byte[] pkR) {
        byte[] aad = Arrays.copyOf(enc, enc.length + pkR.length);
        System.arraycopy(pkR, 0, aad, enc.length, pkR.length);
        return aad;
    }
}
