package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.KeyCurve;

/** Native segwit version 0, 20-byte program RIPEMD-160(SHA-256(compressed key)), Bech32 (BIP-84). */
final class P2wpkhEncoder implements AddressEncoder {
    private final BitcoinNetwork network;

    P2wpkhEncoder(BitcoinNetwork network) {
        this.network = network;
    }

    @Override
    public String encode(KeyCurve curve, byte[] publicKey) {
        return SegwitAddress.encode(network.hrp(), 0, Digests.hash160(PublicKeys.compressed(curve, publicKey)));
    }
}
