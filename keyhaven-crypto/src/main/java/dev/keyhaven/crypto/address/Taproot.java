package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.EcCurve;
import java.math.BigInteger;
import java.util.Arrays;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;

/** BIP-341 key-path-only output key, as BIP-86 uses it: no script tree, so the tweak commits to the key alone. */
public final class Taproot {
    private Taproot() {}

    /**
     * The x-only output key Q = lift_x(P) + int(TaggedHash("TapTweak", P))·G for a 32-byte x-only internal key P.
     *
     * @throws IllegalArgumentException when P is not the x coordinate of a secp256k1 point
     */
    public static byte[] outputKey(byte[] internalKey) {
        if (internalKey.length != 32) {
            throw new IllegalArgumentException("x-only key must be 32 bytes");
        }
        ECDomainParameters domain = EcCurve.SECP256K1.domain();
        byte[] evenY = new byte[33];
        evenY[0] = 0x02;
        System.arraycopy(internalKey, 0, evenY, 1, 32);
        ECPoint p = EcCurve.SECP256K1.decodePoint(evenY);
        BigInteger t = new BigInteger(1, Digests.taggedHash("TapTweak", internalKey));
        if (t.compareTo(domain.getN()) >= 0) {
            // Probability about 2^-128; BIP-341 makes such a key unusable rather than reducing t.
            throw new IllegalArgumentException("taproot tweak is not below the curve order");
        }
        ECPoint q =
                p.add(new FixedPointCombMultiplier().multiply(domain.getG(), t)).normalize();
        if (q.isInfinity()) {
            throw new IllegalArgumentException("taproot output key is the point at infinity");
        }
        return Arrays.copyOfRange(q.getEncoded(true), 1, 33);
    }
}
