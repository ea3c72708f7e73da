package dev.keyhaven.crypto;

import java.math.BigInteger;
import java.security.SecureRandom;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.bouncycastle.crypto.signers.HMacDSAKCalculator;
import org.bouncycastle.crypto.signers.StandardDSAEncoding;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;

/**
 * A private key that signs whole messages the way API-key stamps need: ECDSA over SHA-256 with a DER signature
 * (deterministic nonces per RFC 6979, low-S), or pure Ed25519. The key bytes stay inside a {@link SecretBytes}.
 */
public sealed interface SigningKey extends AutoCloseable {

    /** The public key: 33-byte compressed SEC1 for ECDSA curves, 32 raw bytes for Ed25519. */
    byte[] publicKey();

    /** Signs {@code message}: DER ECDSA over SHA-256, or a 64-byte Ed25519 signature. */
    byte[] sign(byte[] message);

    @Override
    void close();

    /** An ECDSA key on {@code curve} from its 32-byte scalar. */
    static SigningKey ecdsa(EcCurve curve, SecretBytes scalar) {
        return new Ecdsa(curve, scalar);
    }

    /** An Ed25519 key from its 32-byte seed. */
    static SigningKey ed25519(SecretBytes seed) {
        return new Ed25519(seed);
    }

    /** A fresh random ECDSA key on {@code curve}. */
    static SigningKey generateEcdsa(EcCurve curve, SecureRandom random) {
        BigInteger n = curve.order();
        byte[] scalar = new byte[32];
        BigInteger d;
        do {
            random.nextBytes(scalar);
            d = new BigInteger(1, scalar);
        } while (d.signum() == 0 || d.compareTo(n) >= 0);
        return new Ecdsa(curve, SecretBytes.adopt(scalar));
    }

    /** A fresh random Ed25519 key. */
    static SigningKey generateEd25519(SecureRandom random) {
        byte[] seed = new byte[32];
        random.nextBytes(seed);
        return new Ed25519(SecretBytes.adopt(seed));
    }

    /** ECDSA signing key. */
    final class Ecdsa implements SigningKey {
        private final EcCurve curve;
        private final SecretBytes scalar;
        private final byte[] publicKey;

        private Ecdsa(EcCurve curve, SecretBytes scalar) {
            if (scalar.length() != 32) {
                throw new IllegalArgumentException("ECDSA private key must be 32 bytes");
            }
            this.curve = curve;
            this.scalar = scalar;
            this.publicKey = scalar.apply(
                    SecretKeyAccess.get(),
                    d -> new FixedPointCombMultiplier()
                            .multiply(curve.domain().getG(), new BigInteger(1, d))
                            .normalize()
                            .getEncoded(true));
        }

        @Override
        public byte[] publicKey() {
            return publicKey.clone();
        }

        @Override
        public byte[] sign(byte[] message) {
            byte[] digest = Digests.sha256(message);
            BigInteger[] rs = scalar.apply(SecretKeyAccess.get(), d -> {
                ECDSASigner signer = new ECDSASigner(new HMacDSAKCalculator(new SHA256Digest()));
                signer.init(true, new ECPrivateKeyParameters(new BigInteger(1, d), curve.domain()));
                return signer.generateSignature(digest);
            });
            BigInteger n = curve.order();
            BigInteger s = rs[1].compareTo(n.shiftRight(1)) > 0 ? n.subtract(rs[1]) : rs[1];
            try {
                return StandardDSAEncoding.INSTANCE.encode(n, rs[0], s);
            } catch (java.io.IOException e) {
                throw new IllegalStateException("DER encoding of an ECDSA signature failed", e);
            }
        }

        @Override
        public void close() {
            scalar.close();
        }

        @Override
        public String toString() {
            return "SigningKey.Ecdsa[" + curve + ", redacted]";
        }
    }

    /** Ed25519 signing key. */
    final class Ed25519 implements SigningKey {
        private final SecretBytes seed;
        private final byte[] publicKey;

        private Ed25519(SecretBytes seed) {
            if (seed.length() != 32) {
                throw new IllegalArgumentException("Ed25519 private key must be 32 bytes");
            }
            this.seed = seed;
            this.publicKey = seed.apply(
                    SecretKeyAccess.get(),
                    s -> new Ed25519PrivateKeyParameters(s).generatePublicKey().getEncoded());
        }

        @Override
        public byte[] publicKey() {
            return publicKey.clone();
        }

        @Override
        public byte[] sign(byte[] message) {
            return seed.apply(SecretKeyAccess.get(), s -> {
                Ed25519Signer signer = new Ed25519Signer();
                signer.init(true, new Ed25519PrivateKeyParameters(s));
                signer.update(message, 0, message.length);
                return signer.generateSignature();
            });
        }

        @Override
        public void close() {
            seed.close();
        }

        @Override
        public String toString() {
            return "SigningKey.Ed25519[redacted]";
        }
    }
}
