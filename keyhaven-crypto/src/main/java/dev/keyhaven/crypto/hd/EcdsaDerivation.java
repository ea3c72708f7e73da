package dev.keyhaven.crypto.hd;

import dev.keyhaven.crypto.EcCurve;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;
import org.bouncycastle.util.BigIntegers;

/**
 * BIP-32 private derivation on a short-Weierstrass curve, with SLIP-0010's retry rules wherever BIP-32 would give
 * up. For P-256 the retries are required (an invalid I_L has probability 2^-32 there, and the official vectors hit
 * it); for secp256k1 SLIP-0010 and BIP-32 agree except with probability below 2^-127, so one implementation serves
 * both curves.
 *
 * <p>Scalars pass through {@link BigInteger}s, which cannot be wiped; BouncyCastle's arithmetic offers no other
 * form. The byte arrays this class makes are wiped.
 */
final class EcdsaDerivation implements Derivation {
    private final EcCurve curve;
    private final String masterKeyLabel;

    /**
     * @param masterKeyLabel the HMAC key of the master key step: "Bitcoin seed" (secp256k1) or "Nist256p1 seed"
     */
    EcdsaDerivation(EcCurve curve, String masterKeyLabel) {
        this.curve = curve;
        this.masterKeyLabel = masterKeyLabel;
    }

    @Override
    public ExtendedKey master(HmacSha512 hmac, byte[] seed) {
        byte[] label = masterKeyLabel.getBytes(StandardCharsets.US_ASCII);
        byte[] i = hmac.compute(label, seed);
        // SLIP-0010: while I_L is 0 or ≥ n, hash again with I as the new seed.
        while (!isValidKey(new BigInteger(1, i, 0, ExtendedKey.KEY_BYTES))) {
            byte[] next = hmac.compute(label, i);
            Arrays.fill(i, (byte) 0);
            i = next;
        }
        ExtendedKey master = ExtendedKey.split(i);
        Arrays.fill(i, (byte) 0);
        return master;
    }

    @Override
    public ExtendedKey child(HmacSha512 hmac, ExtendedKey parent, int index) {
        byte[] data = new byte[37];
        if ((index & DerivationPath.HARDENED) != 0) {
            // 0x00 ‖ ser256(k_par): hardened steps cost one HMAC and no point multiplication.
            System.arraycopy(parent.key(), 0, data, 1, ExtendedKey.KEY_BYTES);
        } else {
            System.arraycopy(publicKey(parent.key()), 0, data, 0, 33);
        }
        Derivation.putIndex(data, index);
        byte[] i = hmac.compute(parent.chainCode(), data);
        BigInteger parentKey = new BigInteger(1, parent.key());
        BigInteger n = curve.order();
        while (true) {
            BigInteger left = new BigInteger(1, i, 0, ExtendedKey.KEY_BYTES);
            BigInteger childKey = left.add(parentKey).mod(n);
            if (left.compareTo(n) < 0 && childKey.signum() != 0) {
                ExtendedKey child = new ExtendedKey(
                        BigIntegers.asUnsignedByteArray(ExtendedKey.KEY_BYTES, childKey),
                        Arrays.copyOfRange(i, ExtendedKey.KEY_BYTES, 2 * ExtendedKey.KEY_BYTES));
                Arrays.fill(i, (byte) 0);
                Arrays.fill(data, (byte) 0);
                return child;
            }
            // SLIP-0010: I = HMAC(c_par, 0x01 ‖ I_R ‖ ser32(i)), then try again.
            data[0] = 1;
            System.arraycopy(i, ExtendedKey.KEY_BYTES, data, 1, ExtendedKey.KEY_BYTES);
            Arrays.fill(i, (byte) 0);
            i = hmac.compute(parent.chainCode(), data);
        }
    }

    private boolean isValidKey(BigInteger k) {
        return k.signum() != 0 && k.compareTo(curve.order()) < 0;
    }

    /**
     * serP(point(k)), the 33-byte compressed point. The comb multiplier reuses a table BouncyCastle caches on the
     * generator, which makes this the fastest fixed-base multiplication it has.
     */
    private byte[] publicKey(byte[] key) {
        return new FixedPointCombMultiplier()
                .multiply(curve.domain().getG(), new BigInteger(1, key))
                .getEncoded(true);
    }
}
