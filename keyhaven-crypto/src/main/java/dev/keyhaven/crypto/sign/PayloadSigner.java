package dev.keyhaven.crypto.sign;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Objects;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;

/**
 * Signs raw payloads for {@code sign_raw_payload}: ECDSA over a caller-computed 32-byte digest with a recovery id,
 * pure Ed25519 over the message, or (for Bitcoin taproot inputs) BIP-340 Schnorr with the BIP-86 key-path tweak.
 * Keys are lent by a {@link SecretBytes} for the duration of one call; a wiped key makes every method throw
 * {@link IllegalStateException}.
 */
public final class PayloadSigner {
    /** Chosen once per process, from the environment ({@link Secp256k1Signers}). */
    private static final Secp256k1Signers SECP256K1 = Secp256k1Signers.choose(System.getenv(Secp256k1Signers.VARIABLE));

    private PayloadSigner() {}

    /**
     * What makes ECDSA signatures on secp256k1 in this process: libsecp256k1 when it is installed (or named by
     * {@code KEYHAVEN_SECP256K1_LIBRARY}), else BouncyCastle. Both sign alike, byte for byte.
     *
     * @throws IllegalStateException when {@code KEYHAVEN_SECP256K1_LIBRARY} names a library that cannot be used
     */
    public static String secp256k1Implementation() {
        return SECP256K1.describe();
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
        return privateKey.apply(SecretKeyAccess.get(), k -> {
            BigInteger d = new BigInteger(1, k);
            if (d.signum() == 0 || d.compareTo(ec.order()) >= 0) {
                throw new IllegalArgumentException("private key is out of range for " + curve);
            }
            return ec == EcCurve.SECP256K1
                    ? SECP256K1.sign(d, k, digest32)
                    : RecoverableEcdsaSigner.sign(ec, d, digest32);
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
        byte[] signature = privateKey.apply(SecretKeyAccess.get(), seed -> {
            Ed25519Signer signer = new Ed25519Signer();
            signer.init(true, new Ed25519PrivateKeyParameters(seed));
            signer.update(message, 0, message.length);
            return signer.generateSignature();
        });
        return new Signature(Arrays.copyOfRange(signature, 0, 32), Arrays.copyOfRange(signature, 32, 64), 0);
    }

    /**
     * A BIP-340 Schnorr signature over a BIP-341 key-path sighash for the BIP-86 taproot output of the key: the
     * secret is tweaked as BIP-341's taproot_tweak_seckey does with no script tree (negated first when its public key
     * has odd y, then t = TaggedHash("TapTweak", x(P)) added), and signs with aux = {@code auxRandom32}.
     *
     * @return the 64-byte signature {@code x(R) ‖ s}, which PSBT's tap_key_sig carries as is (SIGHASH_DEFAULT)
     * @throws IllegalArgumentException when the sighash or aux is not 32 bytes, or the key is not a 32-byte scalar in
     *     [1, n-1]
     */
    public static byte[] signTaprootKeyPath(SecretBytes privateKey, byte[] sighash32, byte[] auxRandom32) {
        requireDigest(sighash32);
        Objects.requireNonNull(auxRandom32, "auxRandom32");
        if (auxRandom32.length != 32) {
            throw new IllegalArgumentException("auxiliary randomness must be 32 bytes, got " + auxRandom32.length);
        }
        requireKeyLength(privateKey);
        return privateKey.apply(SecretKeyAccess.get(), k -> {
            BigInteger d = new BigInteger(1, k);
            if (d.signum() == 0 || d.compareTo(EcCurve.SECP256K1.order()) >= 0) {
                throw new IllegalArgumentException("private key is out of range for " + KeyCurve.SECP256K1);
            }
            return Bip340Schnorr.sign(TaprootKeyPath.tweakSecret(d), sighash32, auxRandom32);
        });
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
        return curve.ecCurve()
                .orElseThrow(() -> new IllegalArgumentException(
                        curve + " is not an ECDSA curve: Ed25519 signs messages, not digests"));
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
