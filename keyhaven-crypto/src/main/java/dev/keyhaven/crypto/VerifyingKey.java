package dev.keyhaven.crypto;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.bouncycastle.crypto.signers.StandardDSAEncoding;

/**
 * A decoded public key that verifies signatures over whole messages. Decoding a point is the expensive part of a
 * verification that can be done once, and BouncyCastle caches its precomputation on the point object, so callers
 * that verify repeatedly with one key should keep the instance (a cached P-256 key verifies about twice as fast).
 *
 * <p>Instances are immutable and safe to share between threads.
 */
public sealed interface VerifyingKey {

    /** Whether {@code signature} is valid for {@code message}. Never throws on malformed signatures. */
    boolean verify(byte[] message, byte[] signature);

    /**
     * ECDSA over SHA-256 of the message with an ASN.1 DER signature ({@code SHA256withECDSA}). Both low-S and high-S
     * signatures are accepted.
     *
     * @throws IllegalArgumentException when {@code encodedPoint} is not a point of {@code curve}
     */
    static VerifyingKey ecdsaSha256(EcCurve curve, byte[] encodedPoint) {
        return new EcdsaDer(curve, new ECPublicKeyParameters(curve.decodePoint(encodedPoint), curve.domain()), false);
    }

    /**
     * ECDSA on secp256k1 over the EIP-191 ({@code personal_sign}) digest of the message: Keccak-256 of
     * {@code "\x19Ethereum Signed Message:\n" + length + message}, with an ASN.1 DER signature.
     */
    static VerifyingKey ecdsaEip191(byte[] encodedPoint) {
        EcCurve curve = EcCurve.SECP256K1;
        return new EcdsaDer(curve, new ECPublicKeyParameters(curve.decodePoint(encodedPoint), curve.domain()), true);
    }

    /**
     * Pure Ed25519 (RFC 8032) with a 32-byte public key and 64-byte signatures.
     *
     * @throws IllegalArgumentException when the key is not 32 bytes or not a valid point
     */
    static VerifyingKey ed25519(byte[] publicKey) {
        if (publicKey.length != Ed25519PublicKeyParameters.KEY_SIZE) {
            throw new IllegalArgumentException("Ed25519 public key must be 32 bytes");
        }
        try {
            // The constructor decodes and validates the point once and keeps it for every later verification.
            return new Ed25519(new Ed25519PublicKeyParameters(publicKey));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Ed25519 public key is not a valid point", e);
        }
    }

    /**
     * A raw ECDSA signature ({@code r ‖ s}, each 32 bytes big-endian, as app proofs and raw-payload results carry
     * it) in the ASN.1 DER form {@link #ecdsaSha256} verifies.
     *
     * @throws IllegalArgumentException when it is not 64 bytes
     */
    static byte[] derFromRaw(EcCurve curve, byte[] rawSignature) {
        if (rawSignature.length != 64) {
            throw new IllegalArgumentException("a raw ECDSA signature is 64 bytes (r ‖ s)");
        }
        try {
            return StandardDSAEncoding.INSTANCE.encode(
                    curve.order(),
                    new BigInteger(1, Arrays.copyOfRange(rawSignature, 0, 32)),
                    new BigInteger(1, Arrays.copyOfRange(rawSignature, 32, 64)));
        } catch (IOException e) {
            throw new IllegalArgumentException("the signature cannot be encoded", e);
        }
    }

    /** The EIP-191 digest of a message. */
    static byte[] eip191Digest(byte[] message) {
        byte[] prefix = ("\u0019Ethereum Signed Message:\n" + message.length).getBytes(StandardCharsets.UTF_8);
        byte[] data = new byte[prefix.length + message.length];
        System.arraycopy(prefix, 0, data, 0, prefix.length);
        System.arraycopy(message, 0, data, prefix.length, message.length);
        return Digests.keccak256(data);
    }

    /** ECDSA with a DER-encoded signature; {@code eip191} selects the digest. */
    record EcdsaDer(EcCurve curve, ECPublicKeyParameters key, boolean eip191) implements VerifyingKey {
        @Override
        public boolean verify(byte[] message, byte[] signature) {
            BigInteger[] rs;
            try {
                rs = StandardDSAEncoding.INSTANCE.decode(curve.order(), signature);
            } catch (Exception notStrictDer) {
                rs = PaddedDer.decode(signature);
                if (rs == null) {
                    return false;
                }
            }
            byte[] digest = eip191 ? eip191Digest(message) : Digests.sha256(message);
            ECDSASigner verifier = new ECDSASigner();
            verifier.init(false, key);
            return verifier.verifySignature(digest, rs[0], rs[1]);
        }
    }

    /**
     * The one loose DER that Turnkey's official clients send: {@code @turnkey/crypto}'s {@code toDerSignature} turns
     * a raw {@code r ‖ s} into DER without dropping a leading zero byte, so about one signature in 256 (an {@code r}
     * or {@code s} whose first byte is zero and second below 0x80) arrives as a non-minimal INTEGER, which strict DER
     * refuses. This reads exactly {@code SEQUENCE { INTEGER, INTEGER }} with short lengths, non-negative integers of
     * 1 to 33 bytes, and nothing after; anything else is refused. The values are then checked as any signature's.
     */
    static final class PaddedDer {
        private PaddedDer() {}

        /** {r, s}, or null when {@code der} is not of that shape. */
        static BigInteger[] decode(byte[] der) {
            if (der.length < 8 || der[0] != 0x30 || (der[1] & 0xff) != der.length - 2) {
                return null;
            }
            BigInteger r = integerAt(der, 2);
            if (r == null) {
                return null;
            }
            int next = 2 + 2 + (der[3] & 0xff);
            BigInteger s = integerAt(der, next);
            if (s == null || next + 2 + (der[next + 1] & 0xff) != der.length) {
                return null;
            }
            return new BigInteger[] {r, s};
        }

        private static BigInteger integerAt(byte[] der, int at) {
            if (at + 2 > der.length || der[at] != 0x02) {
                return null;
            }
            int length = der[at + 1] & 0xff;
            if (length < 1 || length > 33 || at + 2 + length > der.length || (der[at + 2] & 0x80) != 0) {
                return null;
            }
            return new BigInteger(1, Arrays.copyOfRange(der, at + 2, at + 2 + length));
        }
    }

    /** Ed25519 over the message itself. */
    record Ed25519(Ed25519PublicKeyParameters key) implements VerifyingKey {
        @Override
        public boolean verify(byte[] message, byte[] signature) {
            if (signature.length != 64) {
                return false;
            }
            Ed25519Signer verifier = new Ed25519Signer();
            verifier.init(false, key);
            verifier.update(message, 0, message.length);
            return verifier.verifySignature(signature);
        }
    }
}
