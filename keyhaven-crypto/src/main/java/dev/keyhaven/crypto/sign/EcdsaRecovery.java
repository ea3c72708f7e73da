package dev.keyhaven.crypto.sign;

import dev.keyhaven.crypto.EcCurve;
import java.math.BigInteger;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.math.ec.ECAlgorithms;
import org.bouncycastle.math.ec.ECPoint;

/** Public-key recovery from an ECDSA signature and its recovery id (SEC 1 v2, section 4.1.6). */
final class EcdsaRecovery {
    private EcdsaRecovery() {}

    static byte[] recover(EcCurve curve, byte[] digest, Signature signature) {
        ECDomainParameters domain = curve.domain();
        BigInteger n = domain.getN();
        BigInteger r = new BigInteger(1, signature.r());
        BigInteger s = new BigInteger(1, signature.s());
        if (r.signum() == 0 || r.compareTo(n) >= 0 || s.signum() == 0 || s.compareTo(n) >= 0) {
            throw new IllegalArgumentException("signature r and s must be in [1, n-1]");
        }
        int v = signature.v();
        BigInteger x = (v & 2) != 0 ? r.add(n) : r;
        if (x.compareTo(domain.getCurve().getField().getCharacteristic()) >= 0) {
            throw new IllegalArgumentException("recovery id " + v + " names an x outside the field");
        }
        ECPoint bigR = decompress(domain, x, (v & 1) != 0);
        BigInteger e = new BigInteger(1, digest).mod(n);
        BigInteger rInv = r.modInverse(n);
        // Q = r⁻¹(sR − eG), computed as one double-scalar multiplication.
        ECPoint q = ECAlgorithms.sumOfTwoMultiplies(
                        domain.getG(),
                        e.negate().multiply(rInv).mod(n),
                        bigR,
                        s.multiply(rInv).mod(n))
                .normalize();
        if (q.isInfinity()) {
            throw new IllegalArgumentException("signature recovers to the point at infinity");
        }
        return q.getEncoded(true);
    }

    private static ECPoint decompress(ECDomainParameters domain, BigInteger x, boolean yOdd) {
        byte[] encoded = new byte[33];
        encoded[0] = (byte) (yOdd ? 0x03 : 0x02);
        System.arraycopy(RecoverableEcdsaSigner.toBytes32(x), 0, encoded, 1, 32);
        try {
            return domain.getCurve().decodePoint(encoded);
        } catch (IllegalArgumentException notOnCurve) {
            throw new IllegalArgumentException("signature r is not the x of a curve point", notOnCurve);
        }
    }
}
