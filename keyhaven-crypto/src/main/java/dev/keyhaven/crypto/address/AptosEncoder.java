package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.KeyCurve;
import java.util.HexFormat;

/**
 * Aptos: the legacy Ed25519 authentication key SHA3-256(key ‖ 0x00), as {@code 0x} + all 64 lowercase hex digits
 * (AIP-40 long form, leading zeros kept). Legacy rather than SingleKey because Turnkey's Aptos example signs with
 * the Ed25519 (scheme 0x00) authenticator, which only matches a legacy authentication key (addresses.md §3.8).
 */
final class AptosEncoder implements AddressEncoder {
    private static final byte ED25519_SCHEME = 0x00;

    @Override
    public String encode(KeyCurve curve, byte[] publicKey) {
        byte[] key = PublicKeys.ed25519(curve, publicKey);
        byte[] preimage = new byte[33];
        System.arraycopy(key, 0, preimage, 0, 32);
        preimage[32] = ED25519_SCHEME;
        return "0x" + HexFormat.of().formatHex(Digests.sha3_256(preimage));
    }
}
