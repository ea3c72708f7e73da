package dev.keyhaven.chains.solana;

import java.math.BigInteger;

/** Integers as Solana's programs store them (bincode, Borsh, SPL's packed layouts): little-endian, fixed width. */
final class LittleEndian {
    private LittleEndian() {}

    /** The {@code length} bytes at {@code offset} as an unsigned integer; the caller has checked they exist. */
    static BigInteger unsigned(byte[] data, int offset, int length) {
        return new BigInteger(1, bigEndian(data, offset, length));
    }

    /** The {@code length} bytes at {@code offset} as a two's-complement integer. */
    static BigInteger signed(byte[] data, int offset, int length) {
        return new BigInteger(bigEndian(data, offset, length));
    }

    private static byte[] bigEndian(byte[] data, int offset, int length) {
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[i] = data[offset + length - 1 - i];
        }
        return out;
    }
}
