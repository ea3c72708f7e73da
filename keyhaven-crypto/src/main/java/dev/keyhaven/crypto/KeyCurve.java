package dev.keyhaven.crypto;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.Optional;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;

/**
 * The three curves a wallet account or private key can live on. ECDSA curves have 32-byte scalars and report
 * 33-byte compressed public keys; Ed25519 keys are 32-byte seeds (RFC 8032) with 32-byte public keys.
 */
public enum KeyCurve {
    SECP256K1(EcCurve.SECP256K1),
    P256(EcCurve.P256),
    ED25519(null);

    private static final String WIRE_PREFIX = "CURVE_";

    private final EcCurve ecCurve;

    KeyCurve(EcCurve ecCurve) {
        this.ecCurve = ecCurve;
    }

    /** {@code CURVE_SECP256K1} and so on, as the API names curves. */
    public String wireName() {
        return WIRE_PREFIX + name();
    }

    /** The curve whose wire name is {@code wireName}, if any. */
    public static Optional<KeyCurve> fromWire(String wireName) {
        if (wireName == null || !wireName.startsWith(WIRE_PREFIX)) {
            return Optional.empty();
        }
        String name = wireName.substring(WIRE_PREFIX.length());
        for (KeyCurve curve : values()) {
            if (curve.name().equals(name)) {
                return Optional.of(curve);
            }
        }
        return Optional.empty();
    }

    /** The short-Weierstrass curve behind an ECDSA key; empty for Ed25519. */
    public Optional<EcCurve> ecCurve() {
        return Optional.ofNullable(ecCurve);
    }

    public boolean isEcdsa() {
        return ecCurve != null;
    }

    /**
     * The public key of {@code privateKey}: 33-byte compressed SEC1 for ECDSA curves, the raw 32-byte key for Ed25519.
     *
     * @throws IllegalArgumentException when the private key is not 32 bytes or (ECDSA) not in [1, n-1]
     */
    public byte[] publicKey(SecretBytes privateKey) {
        if (privateKey.length() != 32) {
            throw new IllegalArgumentException("private key must be 32 bytes");
        }
        if (ecCurve == null) {
            return privateKey.apply(
                    SecretKeyAccess.get(),
                    k -> new Ed25519PrivateKeyParameters(k).generatePublicKey().getEncoded());
        }
        return privateKey.apply(SecretKeyAccess.get(), k -> {
            BigInteger d = new BigInteger(1, k);
            if (d.signum() == 0 || d.compareTo(ecCurve.order()) >= 0) {
                throw new IllegalArgumentException("private key is out of range for " + this);
            }
            return new FixedPointCombMultiplier()
                    .multiply(ecCurve.domain().getG(), d)
                    .normalize()
                    .getEncoded(true);
        });
    }

    /** A fresh random private key on this curve. */
    public SecretBytes generatePrivateKey(SecureRandom random) {
        byte[] key = new byte[32];
        if (ecCurve == null) {
            random.nextBytes(key);
            return SecretBytes.adopt(key);
        }
        BigInteger d;
        do {
            random.nextBytes(key);
            d = new BigInteger(1, key);
        } while (d.signum() == 0 || d.compareTo(ecCurve.order()) >= 0);
        return SecretBytes.adopt(key);
    }
}
