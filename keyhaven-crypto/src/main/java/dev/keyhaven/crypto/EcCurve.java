package dev.keyhaven.crypto;

import java.math.BigInteger;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.math.ec.ECPoint;

/**
 * The two short-Weierstrass curves Keyhaven signs and verifies with. BouncyCastle's custom curve implementations
 * (GLV endomorphism for secp256k1, specialised field arithmetic for both) are several times faster than the generic
 * ones and than the JDK's EC provider.
 */
public enum EcCurve {
    P256("secp256r1"),
    SECP256K1("secp256k1");

    private final ECDomainParameters domain;

    EcCurve(String name) {
        X9ECParameters params = CustomNamedCurves.getByName(name);
        this.domain = new ECDomainParameters(params.getCurve(), params.getG(), params.getN(), params.getH());
    }

    public ECDomainParameters domain() {
        return domain;
    }

    public BigInteger order() {
        return domain.getN();
    }

    /**
     * Decodes a SEC1 point (33-byte compressed or 65-byte uncompressed) and checks that it lies on the curve.
     *
     * @throws IllegalArgumentException when the bytes are not a valid point of this curve
     */
    public ECPoint decodePoint(byte[] encoded) {
        if (encoded.length != 33 && encoded.length != 65) {
            throw new IllegalArgumentException("public key must be 33 (compressed) or 65 (uncompressed) bytes");
        }
        try {
            ECPoint point = domain.getCurve().decodePoint(encoded).normalize();
            if (point.isInfinity() || !point.isValid()) {
                throw new IllegalArgumentException("public key is not a valid point");
            }
            return point;
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new IllegalArgumentException("public key is not a valid point", e);
        }
    }

    /** The 33-byte compressed SEC1 form of a public key given in either form. */
    public byte[] compress(byte[] encoded) {
        return decodePoint(encoded).getEncoded(true);
    }

    /** The 65-byte uncompressed SEC1 form of a public key given in either form. */
    public byte[] decompress(byte[] encoded) {
        return decodePoint(encoded).getEncoded(false);
    }
}
