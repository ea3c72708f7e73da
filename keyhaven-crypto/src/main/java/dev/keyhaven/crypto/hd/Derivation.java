package dev.keyhaven.crypto.hd;

/** One curve's rules for the master key and for private parent → private child derivation (BIP-32 / SLIP-0010). */
interface Derivation {
    /** The master key of {@code seed}. */
    ExtendedKey master(HmacSha512 hmac, byte[] seed);

    /** CKDpriv(parent, index), where {@code index} is the raw 32-bit index (bit 31 set when hardened). */
    ExtendedKey child(HmacSha512 hmac, ExtendedKey parent, int index);

    /** ser32(i) written big-endian at {@code data[33..37)}, the place it has in every CKD input. */
    static void putIndex(byte[] data, int index) {
        data[33] = (byte) (index >>> 24);
        data[34] = (byte) (index >>> 16);
        data[35] = (byte) (index >>> 8);
        data[36] = (byte) index;
    }
}
