package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.KeyCurve;
import java.util.HexFormat;

/**
 * Sui: {@code 0x} + lowercase hex of BLAKE2b-256(scheme flag ‖ key). The flag is 0x00 for Ed25519 (32-byte key), 0x01
 * for secp256k1 and 0x02 for P-256 (33-byte compressed keys). {@link AddressFormat#SUI} admits Ed25519 only, as
 * Turnkey does; the other flags are here so that widening it stays a one-line change.
 */
final class SuiEncoder implements AddressEncoder {

    @Override
    public String encode(KeyCurve curve, byte[] publicKey) {
        byte[] key = switch (curve) {
            case ED25519 -> PublicKeys.ed25519(curve, publicKey);
            case SECP256K1, P256 -> PublicKeys.compressed(curve, publicKey);
        };
        byte[] flagged = new byte[1 + key.length];
        flagged[0] = switch (curve) {
            case ED25519 -> 0x00;
            case SECP256K1 -> 0x01;
            case P256 -> 0x02;
        };
        System.arraycopy(key, 0, flagged, 1, key.length);
        return "0x" + HexFormat.of().formatHex(Digests.blake2b256(flagged));
    }
}
