package dev.keyhaven.crypto.sign;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.EcCurve;
import java.math.BigInteger;
import org.bouncycastle.math.ec.ECPoint;

/**
 * The secret that signs for a BIP-86 taproot output: BIP-341's taproot_tweak_seckey with no script tree. The output
 * key commits to the x coordinate of the internal key P alone, so the secret is first negated when P has odd y
 * (x-only keys stand for the even-y point), then tweaked by t = TaggedHash("TapTweak", x(P)).
 */
final class TaprootKeyPath {
    private static final BigInteger N = EcCurve.SECP256K1.order();

    private TaprootKeyPath() {}

    /**
     * The tweaked secret (d + t) mod n, with d = secret or n − secret so that d·G has even y.
     *
     * @throws IllegalArgumentException when the secret is not in [1, n-1], or (probability about 2^-128) when t ≥ n or
     *     the tweaked secret is zero, which BIP-341 makes unusable rather than reduce
     */
    static BigInteger tweakSecret(BigInteger secret) {
        if (secret.signum() <= 0 || secret.compareTo(N) >= 0) {
            throw new IllegalArgumentException("secret key is out of range for secp256k1");
        }
        ECPoint internal = Bip340Schnorr.multiplyG(secret);
        BigInteger d = Bip340Schnorr.hasEvenY(internal) ? secret : N.subtract(secret);
        BigInteger t = new BigInteger(1, Digests.taggedHash("TapTweak", Bip340Schnorr.xBytes(internal)));
        if (t.compareTo(N) >= 0) {
            throw new IllegalArgumentException("taproot tweak is not below the curve order");
        }
        BigInteger tweaked = d.add(t).mod(N);
        if (tweaked.signum() == 0) {
            throw new IllegalArgumentException("taproot tweaked secret is zero");
        }
        return tweaked;
    }
}
