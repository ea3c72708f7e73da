package dev.keyhaven.crypto.bundle;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.math.ec.ECPoint;

/**
 * QuorumOS's P-256 envelope, as {@code @turnkey/crypto}'s {@code quorumKeyEncrypt} writes it (what
 * {@code encryptOauth2ClientSecret} sends): the borsh encoding of {@code nonce[12] ‖ ephemeralSenderPublic[65] ‖
 * u32-LE length ‖ ciphertext} (the ciphertext ends with the 16-byte GCM tag). The AES-256-GCM key is the first 32
 * bytes of HMAC-SHA512 keyed with {@code senderPublic ‖ receiverPublic ‖ ECDH x-coordinate} over the ASCII message
 * {@code qos_encryption_hmac_message}; the AAD is {@code senderPublic ‖ 65 ‖ receiverPublic ‖ 65} (each key followed
 * by its one-byte length). Both public keys are 65-byte uncompressed SEC1.
 */
public final class QuorumEnvelope {
    private static final byte[] HMAC_MESSAGE = "qos_encryption_hmac_message".getBytes(StandardCharsets.US_ASCII);
    private static final int NONCE_BYTES = 12;
    private static final int PUBLIC_KEY_BYTES = 65;
    private static final int TAG_BYTES = 16;
    private static final int HEADER_BYTES = NONCE_BYTES + PUBLIC_KEY_BYTES + 4;

    private QuorumEnvelope() {}

    /**
     * Opens an envelope addressed to the P-256 key {@code recipientPrivateKey}.
     *
     * @throws IllegalArgumentException when the bytes are not an envelope (lengths, sender key) or it does not open
     *         with this key (another recipient, tampered bytes); the message never includes the envelope
     */
    public static SecretBytes open(SecretBytes recipientPrivateKey, byte[] envelope) {
        if (envelope.length < HEADER_BYTES + TAG_BYTES) {
            throw new IllegalArgumentException("is too short to be an envelope");
        }
        ByteBuffer in = ByteBuffer.wrap(envelope).order(ByteOrder.LITTLE_ENDIAN);
        byte[] nonce = new byte[NONCE_BYTES];
        byte[] senderPublic = new byte[PUBLIC_KEY_BYTES];
        in.get(nonce).get(senderPublic);
        long length = Integer.toUnsignedLong(in.getInt());
        if (length != in.remaining()) {
            throw new IllegalArgumentException(
                    "declares a ciphertext of " + length + " bytes but carries " + in.remaining());
        }
        ECPoint sender = senderPoint(senderPublic);
        byte[] receiverPublic = EcCurve.P256.decompress(KeyCurve.P256.publicKey(recipientPrivateKey));
        byte[] key = recipientPrivateKey.apply(
                SecretKeyAccess.get(), d -> sharedKey(sender, new BigInteger(1, d), senderPublic, receiverPublic));
        try {
            return SecretBytes.adopt(aesGcm(Cipher.DECRYPT_MODE, key, nonce, aad(senderPublic, receiverPublic))
                    .doFinal(envelope, HEADER_BYTES, envelope.length - HEADER_BYTES));
        } catch (AEADBadTagException e) {
            throw new IllegalArgumentException("does not open with this key (another recipient, or altered)");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is unavailable", e);
        } finally {
            Arrays.fill(key, (byte) 0);
        }
    }

    /** Encrypts {@code message} to the P-256 public key {@code recipientPublic} (33 or 65 bytes), as the SDK does. */
    public static byte[] seal(byte[] recipientPublic, SecretBytes message, SecureRandom random) {
        byte[] receiverPublic = EcCurve.P256.decompress(recipientPublic);
        ECPoint receiver = EcCurve.P256.decodePoint(receiverPublic);
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try (SecretBytes ephemeral = KeyCurve.P256.generatePrivateKey(random)) {
            byte[] senderPublic = EcCurve.P256.decompress(KeyCurve.P256.publicKey(ephemeral));
            byte[] key = ephemeral.apply(
                    SecretKeyAccess.get(),
                    d -> sharedKey(receiver, new BigInteger(1, d), senderPublic, receiverPublic));
            try {
                byte[] ciphertext = message.apply(SecretKeyAccess.get(), m -> {
                    try {
                        return aesGcm(Cipher.ENCRYPT_MODE, key, nonce, aad(senderPublic, receiverPublic))
                                .doFinal(m);
                    } catch (GeneralSecurityException e) {
                        throw new IllegalStateException("AES-GCM is unavailable", e);
                    }
                });
                return ByteBuffer.allocate(HEADER_BYTES + ciphertext.length)
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .put(nonce)
                        .put(senderPublic)
                        .putInt(ciphertext.length)
                        .put(ciphertext)
                        .array();
            } finally {
                Arrays.fill(key, (byte) 0);
            }
        }
    }

    private static ECPoint senderPoint(byte[] senderPublic) {
        if (senderPublic[0] != 0x04) {
            throw new IllegalArgumentException("has no uncompressed P-256 sender key");
        }
        try {
            return EcCurve.P256.decodePoint(senderPublic);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("has a sender key that is not a P-256 point");
        }
    }

    /** The first 32 bytes of HMAC-SHA512(senderPublic ‖ receiverPublic ‖ ECDH x, "qos_encryption_hmac_message"). */
    private static byte[] sharedKey(ECPoint peer, BigInteger scalar, byte[] senderPublic, byte[] receiverPublic) {
        ECPoint shared = peer.multiply(scalar).normalize();
        if (shared.isInfinity()) {
            throw new IllegalArgumentException("has a sender key that is not a P-256 point");
        }
        byte[] x = shared.getAffineXCoord().getEncoded();
        byte[] preImage = ByteBuffer.allocate(senderPublic.length + receiverPublic.length + x.length)
                .put(senderPublic)
                .put(receiverPublic)
                .put(x)
                .array();
        try {
            Mac mac = Mac.getInstance("HmacSHA512");
            mac.init(new SecretKeySpec(preImage, "HmacSHA512"));
            return Arrays.copyOf(mac.doFinal(HMAC_MESSAGE), 32);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA512 is unavailable", e);
        } finally {
            Arrays.fill(preImage, (byte) 0);
            Arrays.fill(x, (byte) 0);
        }
    }

    private static Cipher aesGcm(int mode, byte[] key, byte[] nonce, byte[] aad) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(mode, new SecretKeySpec(key, "AES"), new GCMParameterSpec(TAG_BYTES * 8, nonce));
        cipher.updateAAD(aad);
        return cipher;
    }

    /** {@code senderPublic ‖ len ‖ receiverPublic ‖ len}, each length one byte (NIST SP 800-56A §5.8.2). */
    private static byte[] aad(byte[] senderPublic, byte[] receiverPublic) {
        return ByteBuffer.allocate(senderPublic.length + receiverPublic.length + 2)
                .put(senderPublic)
                .put((byte) senderPublic.length)
                .put(receiverPublic)
                .put((byte) receiverPublic.length)
                .array();
    }
}
