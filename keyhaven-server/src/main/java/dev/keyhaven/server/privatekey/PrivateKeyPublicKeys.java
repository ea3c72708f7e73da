package dev.keyhaven.server.privatekey;

import dev.keyhaven.crypto.KeyCurve;

/**
 * How a private key's public key is reported: uncompressed SEC1 for ECDSA curves (the real service does so, and
 * {@code @turnkey/cosmjs} compresses it itself), the raw 32 bytes for Ed25519. Wallet accounts report compressed keys.
 */
final class PrivateKeyPublicKeys {
    private PrivateKeyPublicKeys() {}

    static byte[] reported(KeyCurve curve, byte[] publicKey) {
        return curve.ecCurve().map(c -> c.decompress(publicKey)).orElse(publicKey);
    }
}
