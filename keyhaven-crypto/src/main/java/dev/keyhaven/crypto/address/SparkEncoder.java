package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.KeyCurve;

/**
 * Spark: Bech32m of the protobuf {@code SparkAddress { bytes identity_public_key = 1; }}, i.e. field tag 0x0a, length
 * 0x21 and the 33-byte compressed identity key (addresses.md §3.13). Mainnet uses {@code spark}, regtest
 * {@code sparkrt}.
 */
final class SparkEncoder implements AddressEncoder {
    private static final byte IDENTITY_KEY_FIELD = 0x0a;

    private final String hrp;

    SparkEncoder(String hrp) {
        this.hrp = hrp;
    }

    @Override
    public String encode(KeyCurve curve, byte[] publicKey) {
        byte[] key = PublicKeys.compressed(curve, publicKey);
        byte[] message = new byte[2 + key.length];
        message[0] = IDENTITY_KEY_FIELD;
        message[1] = (byte) key.length;
        System.arraycopy(key, 0, message, 2, key.length);
        return Bech32.encode(hrp, Bech32.convertBits(message, 8, 5, true), Bech32.Variant.BECH32M);
    }
}
