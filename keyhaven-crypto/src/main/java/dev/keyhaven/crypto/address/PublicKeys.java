package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.KeyCurve;
import java.util.Objects;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * Validates a public key for its curve and returns it in the form an encoder hashes. Every encoder goes through here,
 * so no address is ever made from bytes that are not a point of the curve.
 */
final class PublicKeys {
    private PublicKeys() {}

    /** The decoded point of a 33- or 65-byte SEC1 key. */
    static ECPoint point(KeyCurve curve, byte[] publicKey) {
        Objects.requireNonNull(publicKey, "publicKey");
        EcCurve ec = curve.ecCurve()
                .orElseThrow(() -> new IllegalArgumentException("curve " + curve + " has no SEC1 public keys"));
        return ec.decodePoint(publicKey);
    }

    /** 33-byte compressed SEC1, the form Bitcoin-family and Cosmos-family hashes take. */
    static byte[] compressed(KeyCurve curve, byte[] publicKey) {
        return point(curve, publicKey).getEncoded(true);
    }

    /** 65-byte {@code 04 ‖ X ‖ Y}. */
    static byte[] uncompressed(KeyCurve curve, byte[] publicKey) {
        return point(curve, publicKey).getEncoded(false);
    }

    /**
     * A 32-byte RFC 8032 key that decodes to a point of the prime-order subgroup (BouncyCastle's full validation, which
     * also rejects small-order points no seed can produce).
     */
    static byte[] ed25519(KeyCurve curve, byte[] publicKey) {
        Objects.requireNonNull(publicKey, "publicKey");
        if (curve != KeyCurve.ED25519) {
            throw new IllegalArgumentException("curve " + curve + " is not Ed25519");
        }
        if (publicKey.length != Ed25519.PUBLIC_KEY_SIZE) {
            throw new IllegalArgumentException("Ed25519 public key must be 32 bytes");
        }
        if (!Ed25519.validatePublicKeyFull(publicKey, 0)) {
            throw new IllegalArgumentException("Ed25519 public key is not a valid point");
        }
        return publicKey.clone();
    }
}
