package dev.keyhaven.crypto.address;

/**
 * CRC-16/XMODEM (polynomial 0x1021, initial value 0, no reflection). Stellar's StrKey appends it little-endian and
 * TON's user-friendly addresses big-endian; the byte order is the caller's business.
 */
final class Crc16Xmodem {
    private Crc16Xmodem() {}

    static int compute(byte[] data, int offset, int length) {
        int crc = 0;
        for (int i = offset; i < offset + length; i++) {
            crc ^= (data[i] & 0xff) << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
        }
        return crc & 0xffff;
    }

    static int compute(byte[] data) {
        return compute(data, 0, data.length);
    }
}
