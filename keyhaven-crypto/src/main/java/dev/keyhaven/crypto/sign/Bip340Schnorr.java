package dev.keyhaven.crypto.sign;

import static org.bouncycastle.util.Arrays.concatenate;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.EcCurve;
import java.math.BigInteger;
import java.util.Arrays;
import org.bouncycastle.math.ec.ECAlgorithms;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;

/**
 * BIP-340 Schnorr signatures on secp256k1, written step for step after the BIP's signing and verification algorithms
 * over BouncyCastle's point arithmetic, which has no BIP-340 signer of its own. Public keys are 32-byte x coordinates
 * of the point with even y; signatures are {@code x(R) ‖ s}, 64 bytes.
 *
 * <p>Signing is package-private: keys reach it only through {@link PayloadSigner}. Verification is public, for
 * callers that check a signature before they hand it out.
 */
public final class Bip340Schnorr {
    private static final EcCurve CURVE = EcCurve.SECP256K1;
    private static final BigInteger N = CURVE.order();
    private static final BigInteger P = CURVE.domain().getCurve().getField().getCharacteristic();
    private static final ECPoint G = CURVE.domain().getG();

    private Bip340Schnorr() {}

    /**
     * Signs {@code message} (any length; a sighash is 32 bytes) with the secret scalar, following BIP-340's
     * algorithm Sign(sk, m) with {@code a} = {@code auxRandom32}, and verifies the result before returning it, as the
     * BIP recommends against faults.
     *
     * @throws IllegalArgumentException when the secret is not in [1, n-1] or aux is not 32 bytes
     */
    static byte[] sign(BigInteger secret, byte[] message, byte[] auxRandom32) {
        if (secret.signum() <= 0 || secret.compareTo(N) >= 0) {
            throw new IllegalArgumentException("secret key is out of range for secp256k1");
        }
        if (auxRandom32.length != 32) {
            throw new IllegalArgumentException("auxiliary randomness must be 32 bytes");
        }
        ECPoint publicPoint = multiplyG(secret);
        BigInteger d = hasEvenY(publicPoint) ? secret : N.subtract(secret);
        byte[] px = xBytes(publicPoint);
        byte[] dBytes = bytes32(d);
        byte[] t = xor(dBytes, Digests.taggedHash("BIP0340/aux", auxRandom32));
        byte[] rand = Digests.taggedHash("BIP0340/nonce", concatenate(t, px, message));
        Arrays.fill(dBytes, (byte) 0);
        Arrays.fill(t, (byte) 0);
        BigInteger kPrime = new BigInteger(1, rand).mod(N);
        if (kPrime.signum() == 0) {
            // Probability about 2^-256: BIP-340 fails rather than retry with another nonce.
            throw new IllegalStateException("BIP-340 nonce is zero");
        }
        ECPoint r = multiplyG(kPrime);
        BigInteger k = hasEvenY(r) ? kPrime : N.subtract(kPrime);
        byte[] rx = xBytes(r);
        BigInteger e = challenge(rx, px, message);
        byte[] signature = concatenate(rx, bytes32(k.add(e.multiply(d)).mod(N)));
        if (!verify(px, message, signature)) {
            throw new IllegalStateException("BIP-340 signature did not verify; refusing to release it");
        }
        return signature;
    }

    /**
     * BIP-340's Verify(pk, m, sig). Never throws on malformed input: a key or signature of the wrong length, a key
     * that is not an x coordinate, r ≥ p or s ≥ n all give {@code false}.
     */
    public static boolean verify(byte[] publicKeyX32, byte[] message, byte[] signature64) {
        if (publicKeyX32 == null
                || message == null
                || signature64 == null
                || publicKeyX32.length != 32
                || signature64.length != 64) {
            return false;
        }
        ECPoint publicPoint = liftX(publicKeyX32);
        if (publicPoint == null) {
            return false;
        }
        byte[] rx = Arrays.copyOfRange(signature64, 0, 32);
        BigInteger r = new BigInteger(1, rx);
        BigInteger s = new BigInteger(1, Arrays.copyOfRange(signature64, 32, 64));
        if (r.compareTo(P) >= 0 || s.compareTo(N) >= 0) {
            return false;
        }
        BigInteger e = challenge(rx, publicKeyX32, message);
        // R = s·G − e·P, computed as s·G + (n − e)·P in one interleaved multiplication.
        ECPoint bigR = ECAlgorithms.sumOfTwoMultiplies(G, s, publicPoint, N.subtract(e))
                .normalize();
        return !bigR.isInfinity()
                && hasEvenY(bigR)
                && bigR.getAffineXCoord().toBigInteger().equals(r);
    }

    /** The point with x coordinate {@code x} and even y, or null when there is none (BIP-340's lift_x). */
    static ECPoint liftX(byte[] x32) {
        if (new BigInteger(1, x32).compareTo(P) >= 0) {
            return null;
        }
        byte[] compressed = new byte[33];
        compressed[0] = 0x02;
        System.arraycopy(x32, 0, compressed, 1, 32);
        try {
            return CURVE.decodePoint(compressed);
        } catch (IllegalArgumentException notOnCurve) {
            return null;
        }
    }

    static ECPoint multiplyG(BigInteger scalar) {
        return new FixedPointCombMultiplier().multiply(G, scalar).normalize();
    }

    static boolean hasEvenY(ECPoint normalized) {
        return !normalized.getAffineYCoord().testBitZero();
    }

    static byte[] xBytes(ECPoint normalized) {
        return bytes32(normalized.getAffineXCoord().toBigInteger());
    }

    static byte[] bytes32(BigInteger value) {
        return RecoverableEcdsaSigner.toBytes32(value);
    }

    private static BigInteger challenge(byte[] rx, byte[] px, byte[] message) {
        return new BigInteger(1, Digests.taggedHash("BIP0340/challenge", concatenate(rx, px, message))).mod(N);
    }

    private static byte[] xor(byte[] a, byte[] b) {
        byte[] out = new byte[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = (byte) (a[i] ^ b[i]);
        }
        return out;
    }
}
