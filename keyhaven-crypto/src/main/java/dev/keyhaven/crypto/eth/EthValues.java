package dev.keyhaven.crypto.eth;

import dev.keyhaven.crypto.Digests;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Coerces parsed-JSON values into the integers, byte strings and addresses Ethereum encodings need. Failures are
 * {@link IllegalArgumentException}s whose message describes the problem but not where it is: callers prefix the
 * field, and never the value (typed data can be long, and echoing input into error logs is a habit to avoid).
 */
final class EthValues {
    /** More decimal digits than 2^256 has (78) cannot be in range; refusing early keeps parsing cheap. */
    private static final int MAX_DECIMAL_DIGITS = 78;

    private static final int MAX_HEX_DIGITS = 64;
    private static final HexFormat HEX = HexFormat.of();

    private EthValues() {}

    /**
     * An integer from a JSON number (any integral {@link Number}, including integral doubles), a decimal string
     * ({@code "-12"}) or a {@code 0x} hex string. viem sends bigints as decimal strings; some clients send hex.
     */
    static BigInteger integer(Object value) {
        return switch (value) {
            case BigInteger b -> b;
            case Long l -> BigInteger.valueOf(l);
            case Integer i -> BigInteger.valueOf(i);
            case Short s -> BigInteger.valueOf(s);
            case Byte b -> BigInteger.valueOf(b);
            case BigDecimal d -> integral(d);
            case Double d -> integral(d);
            case Float f -> integral(f.doubleValue());
            case String s -> parseInteger(s);
            case null -> throw new IllegalArgumentException("is missing");
            default -> throw new IllegalArgumentException("must be a number or a numeric string");
        };
    }

    private static BigInteger integral(double d) {
        if (!Double.isFinite(d)) {
            throw new IllegalArgumentException("must be a finite number");
        }
        return integral(new BigDecimal(d));
    }

    private static BigInteger integral(BigDecimal d) {
        if (d.signum() == 0) {
            return BigInteger.ZERO;
        }
        BigDecimal stripped = d.stripTrailingZeros();
        if (stripped.scale() > 0) {
            throw new IllegalArgumentException("must be an integer");
        }
        if (stripped.precision() - stripped.scale() > MAX_DECIMAL_DIGITS) {
            throw new IllegalArgumentException("is out of range");
        }
        return stripped.toBigIntegerExact();
    }

    private static BigInteger parseInteger(String s) {
        if (s.startsWith("0x")) {
            String digits = stripLeadingZeros(s.substring(2));
            if (s.length() == 2 || !isHex(s, 2)) {
                throw new IllegalArgumentException("must be a decimal or 0x-prefixed hex integer");
            }
            if (digits.length() > MAX_HEX_DIGITS) {
                throw new IllegalArgumentException("is out of range");
            }
            return digits.isEmpty() ? BigInteger.ZERO : new BigInteger(digits, 16);
        }
        int start = s.startsWith("-") ? 1 : 0;
        if (s.length() == start || !isDecimal(s, start)) {
            throw new IllegalArgumentException("must be a decimal or 0x-prefixed hex integer");
        }
        if (stripLeadingZeros(s.substring(start)).length() > MAX_DECIMAL_DIGITS) {
            throw new IllegalArgumentException("is out of range");
        }
        return new BigInteger(s);
    }

    /**
     * Bytes from a {@code 0x}-prefixed hex string. An odd number of digits is read with a leading zero nibble,
     * as viem and eth-sig-util do for {@code bytes} values.
     */
    static byte[] hexBytes(Object value) {
        if (!(value instanceof String s)) {
            throw new IllegalArgumentException(value == null ? "is missing" : "must be a 0x-prefixed hex string");
        }
        if (!s.startsWith("0x") || !isHex(s, 2)) {
            throw new IllegalArgumentException("must be a 0x-prefixed hex string");
        }
        String digits = s.length() % 2 == 1 ? "0" + s.substring(2) : s.substring(2);
        return HEX.parseHex(digits);
    }

    /**
     * A 20-byte address from {@code 0x} and 40 hex digits. All-lowercase and all-uppercase digits are accepted as
     * they are; mixed case must be a valid EIP-55 checksum, as viem's {@code isAddress} and ethers' {@code getAddress}
     * require, because a wrong checksum usually means a mistyped address.
     */
    static byte[] address(Object value) {
        if (!(value instanceof String s)) {
            throw new IllegalArgumentException(value == null ? "is missing" : "must be a 0x-prefixed address string");
        }
        if (s.length() != 42 || !s.startsWith("0x") || !isHex(s, 2)) {
            throw new IllegalArgumentException("must be 0x followed by 40 hex digits");
        }
        String digits = s.substring(2);
        boolean hasLower = !digits.equals(digits.toUpperCase(Locale.ROOT));
        boolean hasUpper = !digits.equals(digits.toLowerCase(Locale.ROOT));
        if (hasLower && hasUpper && !digits.equals(checksummed(digits))) {
            throw new IllegalArgumentException("has an invalid EIP-55 checksum");
        }
        return HEX.parseHex(digits);
    }

    /** EIP-55: a hex letter is upper case when the matching nibble of keccak256(lowercase hex) is 8 or more. */
    static String checksummed(String hexDigits) {
        String lower = hexDigits.toLowerCase(Locale.ROOT);
        byte[] hash = Digests.keccak256(lower.getBytes(StandardCharsets.US_ASCII));
        StringBuilder out = new StringBuilder(lower.length());
        for (int i = 0; i < lower.length(); i++) {
            char c = lower.charAt(i);
            int nibble = (hash[i / 2] >> (i % 2 == 0 ? 4 : 0)) & 0x0f;
            out.append(c >= 'a' && nibble >= 8 ? Character.toUpperCase(c) : c);
        }
        return out.toString();
    }

    private static boolean isHex(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDecimal(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static String stripLeadingZeros(String digits) {
        int i = 0;
        while (i < digits.length() && digits.charAt(i) == '0') {
            i++;
        }
        return digits.substring(i);
    }
}
