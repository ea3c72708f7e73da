package dev.keyhaven.crypto.address;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Locale;

/**
 * Bech32 (BIP-173) and Bech32m (BIP-350): a human-readable part, the separator {@code 1}, 5-bit data and a six-character
 * BCH checksum. The two variants differ only in the constant the checksum is XORed with, so a string is valid in at
 * most one of them. Strings are limited to BIP-173's 90 characters, which every address format here fits.
 */
final class Bech32 {
    /** The checksum constant distinguishes the variants. */
    enum Variant {
        BECH32(1),
        BECH32M(0x2bc830a3);

        private final int constant;

        Variant(int constant) {
            this.constant = constant;
        }
    }

    /** A decoded string: lowercase human-readable part, 5-bit data without the checksum, and the variant it used. */
    record Decoded(String hrp, byte[] data, Variant variant) {}

    static final int MAX_LENGTH = 90;
    private static final String CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
    private static final int[] GENERATOR = {0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3};

    private Bech32() {}

    /**
     * @param hrp lowercase, 1 to 83 characters in the ASCII range 33..126
     * @param data 5-bit values
     */
    static String encode(String hrp, byte[] data, Variant variant) {
        checkHrp(hrp);
        if (!hrp.equals(hrp.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("bech32 human-readable part must be lowercase");
        }
        if (hrp.length() + 1 + data.length + 6 > MAX_LENGTH) {
            throw new IllegalArgumentException("bech32 string would exceed " + MAX_LENGTH + " characters");
        }
        int checksum = polymod(hrp, data, new byte[6]) ^ variant.constant;
        StringBuilder out = new StringBuilder(hrp).append('1');
        for (byte value : data) {
            if ((value & 0xff) > 31) {
                throw new IllegalArgumentException("bech32 data values are 5 bits");
            }
            out.append(CHARSET.charAt(value));
        }
        for (int i = 0; i < 6; i++) {
            out.append(CHARSET.charAt((checksum >>> (5 * (5 - i))) & 31));
        }
        return out.toString();
    }

    /**
     * Decodes and checks a string under either variant.
     *
     * @throws IllegalArgumentException for every BIP-173/BIP-350 invalidity: length, character range, mixed case,
     *     missing separator, empty human-readable part, short or wrong checksum
     */
    static Decoded decode(String text) {
        if (text.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("bech32 string is longer than " + MAX_LENGTH + " characters");
        }
        boolean lower = false;
        boolean upper = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 33 || c > 126) {
                throw new IllegalArgumentException("bech32 character out of range at index " + i);
            }
            lower |= c >= 'a' && c <= 'z';
            upper |= c >= 'A' && c <= 'Z';
        }
        if (lower && upper) {
            throw new IllegalArgumentException("bech32 string mixes upper and lower case");
        }
        String s = text.toLowerCase(Locale.ROOT);
        int separator = s.lastIndexOf('1');
        if (separator < 1) {
            throw new IllegalArgumentException("bech32 string has no separator or an empty human-readable part");
        }
        if (s.length() - separator - 1 < 6) {
            throw new IllegalArgumentException("bech32 checksum is too short");
        }
        String hrp = s.substring(0, separator);
        byte[] values = new byte[s.length() - separator - 1];
        for (int i = 0; i < values.length; i++) {
            int value = CHARSET.indexOf(s.charAt(separator + 1 + i));
            if (value < 0) {
                throw new IllegalArgumentException("not a bech32 data character at index " + (separator + 1 + i));
            }
            values[i] = (byte) value;
        }
        int residue = polymod(hrp, values, new byte[0]);
        for (Variant variant : Variant.values()) {
            if (residue == variant.constant) {
                return new Decoded(hrp, Arrays.copyOf(values, values.length - 6), variant);
            }
        }
        throw new IllegalArgumentException("bech32 checksum does not match");
    }

    /**
     * Regroups bits from {@code fromBits}-bit to {@code toBits}-bit values, big-endian. With {@code pad} the last group
     * is zero-filled (encoding); without it leftover bits must be fewer than {@code fromBits} and zero (decoding).
     */
    static byte[] convertBits(byte[] data, int fromBits, int toBits, boolean pad) {
        int acc = 0;
        int bits = 0;
        int maxValue = (1 << toBits) - 1;
        ByteArrayOutputStream out = new ByteArrayOutputStream(data.length * fromBits / toBits + 1);
        for (byte b : data) {
            int value = b & 0xff;
            if (value >>> fromBits != 0) {
                throw new IllegalArgumentException("value does not fit in " + fromBits + " bits");
            }
            acc = (acc << fromBits) | value;
            bits += fromBits;
            while (bits >= toBits) {
                bits -= toBits;
                out.write((acc >>> bits) & maxValue);
            }
        }
        if (pad) {
            if (bits > 0) {
                out.write((acc << (toBits - bits)) & maxValue);
            }
        } else if (bits >= fromBits || ((acc << (toBits - bits)) & maxValue) != 0) {
            throw new IllegalArgumentException("invalid padding in bit conversion");
        }
        return out.toByteArray();
    }

    private static void checkHrp(String hrp) {
        if (hrp.isEmpty() || hrp.length() > 83) {
            throw new IllegalArgumentException("bech32 human-readable part must be 1 to 83 characters");
        }
        for (int i = 0; i < hrp.length(); i++) {
            char c = hrp.charAt(i);
            if (c < 33 || c > 126) {
                throw new IllegalArgumentException("bech32 human-readable part has a character out of range");
            }
        }
    }

    /** BIP-173 polymod over the expanded human-readable part, the data and the trailing values. */
    private static int polymod(String hrp, byte[] data, byte[] tail) {
        int chk = 1;
        for (int i = 0; i < hrp.length(); i++) {
            chk = step(chk, hrp.charAt(i) >>> 5);
        }
        chk = step(chk, 0);
        for (int i = 0; i < hrp.length(); i++) {
            chk = step(chk, hrp.charAt(i) & 31);
        }
        for (byte value : data) {
            chk = step(chk, value);
        }
        for (byte value : tail) {
            chk = step(chk, value);
        }
        return chk;
    }

    private static int step(int chk, int value) {
        int top = chk >>> 25;
        chk = ((chk & 0x1ffffff) << 5) ^ value;
        for (int i = 0; i < 5; i++) {
            if (((top >>> i) & 1) != 0) {
                chk ^= GENERATOR[i];
            }
        }
        return chk;
    }
}
