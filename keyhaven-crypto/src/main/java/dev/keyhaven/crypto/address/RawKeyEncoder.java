package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.KeyCurve;
import java.util.HexFormat;

/**
 * COMPRESSED and UNCOMPRESSED: the key itself in lowercase hex. ECDSA keys become {@code 02|03 ‖ X} or
 * {@code 04 ‖ X ‖ Y} whatever form they arrive in; an Ed25519 key, which has one form, is its 32 bytes (Turnkey's
 * format for chains without a dedicated one, addresses.md §3.1).
 */
final class RawKeyEncoder implements AddressEncoder {
    private final boolean compressed;

    RawKeyEncoder(boolean compressed) {
        this.compressed = compressed;
    }

    @Override
    public String encode(KeyCurve curve, byte[] publicKey) {
        if (!curve.isEcdsa()) {
            if (!compressed) {
                throw new IllegalArgumentException("an Ed25519 key has no uncompressed form");
            }
            return HexFormat.of().formatHex(PublicKeys.ed25519(curve, publicKey));
        }
        byte[] key = compressed ? PublicKeys.compressed(curve, publicKey) : PublicKeys.uncompressed(curve, publicKey);
        return HexFormat.of().formatHex(key);
    }
}
