package dev.keyhaven.crypto.sign;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Objects;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;

/**
 * Signs raw payloads for {@code sign_raw_payload}: ECDSA over a caller-computed 32-byte digest with a recovery id,
 * or pure Ed25519 over the message. Keys are lent by a {@link SecretBytes} for the duration of one call; a wiped key
 * makes every method throw {@link IllegalStateException}.
 */
public final class PayloadSigner {
    private PayloadSigner() {
    }

    /**
     * ECDSA over a 32-byte digest on SECP256K1 or P256: RFC 6979 nonce, low-S, v = recovery id computed from R while
     * signing (y parity of R, +2 if R.x ≥ n), flipped when s is normalised.
     *
     * @throws IllegalArgumentException when the curve is not ECDSA, the digest is not 32 bytes, or the key is not a
     *     32-byte scalar in [1, n-1]
     */
    public static Signature signDigest(KeyCurve curve, SecretBytes privateKey, byte[] digest32) {
        EcCurve ec = ecCurve(curve);
        requireDigest(digest32);
        requireKeyLength(privateKey);
        return privateKey.apply(k -> {
            BigInteger d = new BigInteger(1, k);
            if (d.signum() == 0 || d.compareTo(ec.order()) >= 0) {
                throw new IllegalArgumentException("private key is out of range for " + curve);
            }
            return RecoverableEcdsaSigner.sign(ec, d, digest32);
        });
    }

    /**
     * Pure Ed25519 over the message bytes (RFC 8032). r = first 32 bytes, s = last 32, v = 0.
     *
     * @throws IllegalArgumentException when the key is not a 32-byte seed
     */
    public static Signature signEd25519(SecretBytes privateKey, byte[] message) {
        Objects.requireNonNull(message, "message");
        requireKeyLength(privateKey);
        byte[] signature = privateKey.apply(seed -> {
            Ed25519Signer signer = new Ed25519Signer();
            signer.init(true, new Ed25519PrivateKeyParameters(seed));
            signer.update(message, 0, message.length);
            return signer.generateSignature();
        });
        return new Signature(Arrays.copyOfRange(signature, 0, 32), Arrays.copyOfRange(signature, 32, 64), 0);
    }

    /**
     * Recovers the 33-byte compressed public key from a digest and signature (used by tests and by callers that
     * double-check).
     *
     * @throws IllegalArgumentException when the curve is not ECDSA, the digest is not 32 bytes, or the signature
     *     does not recover to a point
     */
    public static byte[] recoverPublicKey(KeyCurve curve, byte[] digest32, Signature signature) {
        EcCurve ec = ecCurve(curve);
        requireDigest(digest32);
        Objects.requireNonNull(signature, "signature");
        return EcdsaRecovery.recover(ec, digest32, signature);
    }

    private static EcCurve ecCurve(KeyCurve curve) {
        Objects.requireNonNull(curve, "curve");
        return curve.ecCurve().orElseThrow(
                () -> new IllegalArgumentException(curve + " is not an ECDSA curve: Ed25519 signs messages, not digests"));
    }

    private static void requireDigest(byte[] digest) {
        Objects.requireNonNull(digest, "digest");
        if (digest.length != 32) {
            throw new IllegalArgumentException("digest must be 32 bytes, got " + digest.length);
        }
    }

    private static void requireKeyLength(SecretBytes privateKey) {
        Objects.requireNonNull(privateKey, "privateKey");
        if (privateKey.length() != 32) {
            throw new IllegalArgumentException("private key must be 32 bytes");
        }
    }
}
