package dev.keyhaven.crypto.sign;

import dev.keyhaven.crypto.EcCurve;
import java.math.BigInteger;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.HMacDSAKCalculator;
import org.bouncycastle.math.ec.ECMultiplier;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;

/**
 * BouncyCastle's {@link ECDSASigner} (RFC 6979 nonces) that also remembers the point R = kG it computed, so the
 * recovery id comes straight from R instead of from trial recoveries (which cost a point decompression and two
 * scalar multiplications each, about 4x the signature itself).
 *
 * <p>{@code ECDSASigner.generateSignature} asks {@link #createBasePointMultiplier()} for its multiplier once and
 * then computes {@code multiply(G, k).normalize()} for each candidate k; the last point it computes is the R of the
 * signature it returns. Wrapping the multiplier is therefore enough to see R without re-implementing ECDSA.
 *
 * <p>One instance signs once: it holds per-signature state and is not thread-safe.
 */
final class RecoverableEcdsaSigner extends ECDSASigner {
    private ECPoint lastR;

    private RecoverableEcdsaSigner() {
        super(new HMacDSAKCalculator(new SHA256Digest()));
    }

    /**
     * Signs {@code digest} with the scalar {@code d} (already checked to be in [1, n-1]) and returns the low-S
     * signature with its recovery id.
     */
    static Signature sign(EcCurve curve, BigInteger d, byte[] digest) {
        RecoverableEcdsaSigner signer = new RecoverableEcdsaSigner();
        signer.init(true, new ECPrivateKeyParameters(d, curve.domain()));
        BigInteger[] rs = signer.generateSignature(digest);
        BigInteger n = curve.order();
        ECPoint r = signer.lastR;
        int recId = (r.getAffineYCoord().testBitZero() ? 1 : 0)
                | (r.getAffineXCoord().toBigInteger().compareTo(n) >= 0 ? 2 : 0);
        BigInteger s = rs[1];
        if (s.compareTo(n.shiftRight(1)) > 0) {
            // (r, n - s) is the signature of -R, whose y has the other parity; R.x and so bit 1 are unchanged.
            s = n.subtract(s);
            recId ^= 1;
        }
        return new Signature(toBytes32(rs[0]), toBytes32(s), recId);
    }

    @Override
    protected ECMultiplier createBasePointMultiplier() {
        ECMultiplier inner = new FixedPointCombMultiplier();
        return (point, k) -> {
            // Normalised here so the signer's own normalize() is a no-op and R's affine coordinates are ready.
            ECPoint p = inner.multiply(point, k).normalize();
            lastR = p;
            return p;
        };
    }

    static byte[] toBytes32(BigInteger value) {
        byte[] out = new byte[32];
        byte[] raw = value.toByteArray();
        int copy = Math.min(raw.length, 32);
        System.arraycopy(raw, raw.length - copy, out, 32 - copy, copy);
        return out;
    }
}
