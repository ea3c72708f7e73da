package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.KeyCurve;
import org.bouncycastle.util.encoders.Base32;

/**
 * Stellar account ids (StrKey {@code G…}): RFC 4648 Base32 without padding of version byte 6&lt;&lt;3 ‖ key ‖
 * CRC16-XMODEM of those 33 bytes, little-endian.
 */
final class StellarEncoder implements AddressEncoder {
    private static final int ACCOUNT_ID_VERSION = 6 << 3;

    @Override
    public String encode(KeyCurve curve, byte[] publicKey) {
        byte[] key = PublicKeys.ed25519(curve, publicKey);
        byte[] data = new byte[35];
        data[0] = ACCOUNT_ID_VERSION;
        System.arraycopy(key, 0, data, 1, 32);
        int crc = Crc16Xmodem.compute(data, 0, 33);
        data[33] = (byte) crc;
        data[34] = (byte) (crc >>> 8);
        // 35 bytes are exactly 56 Base32 characters, so the encoding carries no padding to strip.
        return Base32.toBase32String(data);
    }
}
