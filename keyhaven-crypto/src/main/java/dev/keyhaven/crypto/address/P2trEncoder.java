package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.KeyCurve;
import java.util.Arrays;

/**
 * Taproot key-path-only outputs (BIP-86): segwit version 1, Bech32m, program = the tweaked x-only key. The internal key
 * is the x coordinate of the account key; its Y parity does not matter because BIP-341 lifts x to the even-Y point.
 */
final class P2trEncoder implements AddressEncoder {
    private final BitcoinNetwork network;

    P2trEncoder(BitcoinNetwork network) {
        this.network = network;
    }

    @Override
    public String encode(KeyCurve curve, byte[] publicKey) {
        byte[] internalKey = Arrays.copyOfRange(PublicKeys.compressed(curve, publicKey), 1, 33);
        return SegwitAddress.encode(network.hrp(), 1, Taproot.outputKey(internalKey));
    }
}
