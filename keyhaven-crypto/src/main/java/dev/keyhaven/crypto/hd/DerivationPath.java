package dev.keyhaven.crypto.hd;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A BIP-32 path such as {@code m/44'/60'/0'/0/0}, as the raw 32-bit child indices from the master key down: a
 * hardened index has bit 31 ({@link #HARDENED}) set.
 *
 * @param indices the child indices, outermost first; empty for the master key itself
 */
public record DerivationPath(List<Integer> indices) {
    public static final int HARDENED = 0x80000000;

    /** BIP-32 serialises the depth in one byte, so no deeper key can be exported or compared with other wallets. */
    static final int MAX_DEPTH = 255;

    public DerivationPath {
        indices = List.copyOf(indices);
        if (indices.size() > MAX_DEPTH) {
            throw new IllegalArgumentException(
                    "path has " + indices.size() + " levels; at most " + MAX_DEPTH + " are allowed");
        }
    }

    /**
     * Parses {@code m} followed by {@code /}-separated decimal indices below 2^31, each optionally marked hardened
     * with {@code '}, {@code h} or {@code H}. Nothing else is accepted: no whitespace, signs, empty segments or
     * repeated markers.
     *
     * @throws IllegalArgumentException naming the offending segment (levels counted from 1 after {@code m})
     */
    public static DerivationPath parse(String text) {
        Objects.requireNonNull(text, "path");
        if (!text.equals("m") && !text.startsWith("m/")) {
            throw new IllegalArgumentException("path must be \"m\" or start with \"m/\"");
        }
        if (text.equals("m")) {
            return new DerivationPath(List.of());
        }
        String[] segments = text.substring(2).split("/", -1);
        if (segments.length > MAX_DEPTH) {
            throw new IllegalArgumentException(
                    "path has " + segments.length + " levels; at most " + MAX_DEPTH + " are allowed");
        }
        List<Integer> indices = new ArrayList<>(segments.length);
        for (int i = 0; i < segments.length; i++) {
            indices.add(parseSegment(segments[i], i + 1));
        }
        return new DerivationPath(indices);
    }

    private static int parseSegment(String segment, int level) {
        if (segment.isEmpty()) {
            throw new IllegalArgumentException("path segment " + level + " is empty");
        }
        char last = segment.charAt(segment.length() - 1);
        boolean hardened = last == '\'' || last == 'h' || last == 'H';
        String digits = hardened ? segment.substring(0, segment.length() - 1) : segment;
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("path segment " + level + " (" + quote(segment) + ") is not a number");
        }
        long value = 0;
        for (int i = 0; i < digits.length(); i++) {
            value = value * 10 + (digits.charAt(i) - '0');
            if (value > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("path segment " + level + " (" + quote(segment)
                        + ") is out of range: indices must be below 2^31 (mark hardened ones with ')");
            }
        }
        return hardened ? (int) value | HARDENED : (int) value;
    }

    /** Paths are not secret, but they can be long or hold control characters that would garble a log line. */
    private static String quote(String segment) {
        StringBuilder out = new StringBuilder("'");
        segment.codePoints().limit(24).forEach(c -> out.appendCodePoint(c >= 0x20 && c != 0x7f ? c : '?'));
        if (segment.codePointCount(0, segment.length()) > 24) {
            out.append('…');
        }
        return out.append('\'').toString();
    }

    /** The canonical text form: decimal indices, hardened ones marked with {@code '}. */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("m");
        for (int index : indices) {
            out.append('/').append(index & ~HARDENED);
            if ((index & HARDENED) != 0) {
                out.append('\'');
            }
        }
        return out.toString();
    }
}
