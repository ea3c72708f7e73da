package dev.keyhaven.crypto.address;

import java.util.Arrays;

/**
 * Base58 over a 58-character alphabet: big-endian base conversion, with each leading zero byte written as the
 * alphabet's first character. Bitcoin-family chains and Solana use {@link #BITCOIN}; the XRP Ledger uses
 * {@link #RIPPLE}, whose different order makes its addresses start with {@code r}.
 */
public final class Base58 {
    public static final Base58 BITCOIN = new Base58("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz");
    static final Base58 RIPPLE = new Base58("rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz");

    private final String alphabet;
    private final int[] digitOf = new int[128];

    private Base58(String alphabet) {
        this.alphabet = alphabet;
        Arrays.fill(digitOf, -1);
        for (int i = 0; i < alphabet.length(); i++) {
            digitOf[alphabet.charAt(i)] = i;
        }
    }

    String encode(byte[] data) {
        int zeros = 0;
        while (zeros < data.length && data[zeros] == 0) {
            zeros++;
        }
        // Base-58 digits, least significant first; log(256)/log(58) < 1.37 digits per byte.
        int[] digits = new int[data.length * 137 / 100 + 1];
        int length = 0;
        for (int i = zeros; i < data.length; i++) {
            int carry = data[i] & 0xff;
            for (int j = 0; j < length; j++) {
                carry += digits[j] << 8;
                digits[j] = carry % 58;
                carry /= 58;
            }
            while (carry > 0) {
                digits[length++] = carry % 58;
                carry /= 58;
            }
        }
        StringBuilder out = new StringBuilder(zeros + length);
        out.repeat(alphabet.charAt(0), zeros);
        for (int i = length - 1; i >= 0; i--) {
            out.append(alphabet.charAt(digits[i]));
        }
        return out.toString();
    }

    /** @throws IllegalArgumentException on a character outside the alphabet */
    byte[] decode(String text) {
        int zeros = 0;
        while (zeros < text.length() && text.charAt(zeros) == alphabet.charAt(0)) {
            zeros++;
        }
        // Bytes, least significant first; log(58)/log(256) < 0.74 bytes per digit.
        int[] bytes = new int[text.length() * 74 / 100 + 1];
        int length = 0;
        for (int i = zeros; i < text.length(); i++) {
            char c = text.charAt(i);
            int carry = c < 128 ? digitOf[c] : -1;
            if (carry < 0) {
                throw new IllegalArgumentException("not a base58 character at index " + i);
            }
            for (int j = 0; j < length; j++) {
                carry += bytes[j] * 58;
                bytes[j] = carry & 0xff;
                carry >>>= 8;
            }
            while (carry > 0) {
                bytes[length++] = carry & 0xff;
                carry >>>= 8;
            }
        }
        byte[] out = new byte[zeros + length];
        for (int i = 0; i < length; i++) {
            out[zeros + i] = (byte) bytes[length - 1 - i];
        }
        return out;
    }
}
