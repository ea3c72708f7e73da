package dev.keyhaven.chains.ethereum;

import java.util.HexFormat;

/** Byte strings as {@code eth.tx} shows them: {@code 0x} and lowercase hex, {@code 0x} alone when empty. */
final class Hex {
    private static final HexFormat LOWERCASE = HexFormat.of();

    private Hex() {}

    static String prefixed(byte[] bytes) {
        return "0x" + LOWERCASE.formatHex(bytes);
    }
}
