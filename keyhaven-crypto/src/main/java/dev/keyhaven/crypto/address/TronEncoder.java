package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.KeyCurve;
import java.util.Arrays;

/** Tron: the Ethereum account bytes behind version byte 0x41, in Base58Check, so every address starts with {@code T}. */
final class TronEncoder implements AddressEncoder {
    private static final int VERSION = 0x41;

    @Override
    public String encode(KeyCurve curve, byte[] publicKey) {
        byte[] xy = Arrays.copyOfRange(PublicKeys.uncompressed(curve, publicKey), 1, 65);
        return Base58Check.encode(Base58.BITCOIN, VERSION, Arrays.copyOfRange(Digests.keccak256(xy), 12, 32));
    }
}
