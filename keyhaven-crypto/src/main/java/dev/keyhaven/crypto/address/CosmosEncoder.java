package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.KeyCurve;

/**
 * Cosmos SDK account addresses: Bech32 (not Bech32m) of RIPEMD-160(SHA-256(compressed key)) under the chain's prefix,
 * {@code cosmos} for the hub and {@code sei} for Sei.
 */
final class CosmosEncoder implements AddressEncoder {
    private final String hrp;

    CosmosEncoder(String hrp) {
        this.hrp = hrp;
    }

    @Override
    public String encode(KeyCurve curve, byte[] publicKey) {
        byte[] account = Digests.hash160(PublicKeys.compressed(curve, publicKey));
        return Bech32.encode(hrp, Bech32.convertBits(account, 8, 5, true), Bech32.Variant.BECH32);
    }
}
