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
            } catch (Exception malformed) {
                return false;
            }
            byte[] digest = eip191 ? eip191Digest(message) : Digests.sha256(message);
            ECDSASigner verifier = new ECDSASigner();
            verifier.init(false, key);
            return verifier.verifySignature(digest, rs[0], rs[1]);
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
