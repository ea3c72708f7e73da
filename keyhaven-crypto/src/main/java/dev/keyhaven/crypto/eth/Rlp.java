package dev.keyhaven.crypto.eth;

import java.math.BigInteger;
import java.util.Objects;

/**
 * Recursive Length Prefix encoding (Ethereum Yellow Paper, appendix B) of byte strings, non-negative integers and
 * lists of already-encoded items. Integers are minimal big-endian byte strings, so zero encodes as the empty string
 * {@code 0x80}, never as {@code 0x00}.
 */
public final class Rlp {
    private static final int STRING_OFFSET = 0x80;
    private static final int LIST_OFFSET = 0xc0;

    private Rlp() {}

    /** A byte string: a single byte below 0x80 stands for itself, anything else gets a length prefix. */
    public static byte[] encodeBytes(byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes");
        if (bytes.length == 1 && (bytes[0] & 0xff) < STRING_OFFSET) {
            return bytes.clone();
        }
        return withHeader(STRING_OFFSET, bytes);
    }

    /** A non-negative integer as its minimal big-endian byte string. */
    public static byte[] encodeInteger(BigInteger value) {
        Objects.requireNonNull(value, "value");
        if (value.signum() < 0) {
            throw new IllegalArgumentException("RLP encodes only non-negative integers");
        }
        return encodeBytes(minimalBigEndian(value));
    }

    /** A list whose items are already RLP-encoded. */
    public static byte[] encodeList(byte[]... encodedItems) {
        int length = 0;
        for (byte[] item : encodedItems) {
            length = Math.addExact(length, item.length);
        }
        byte[] payload = new byte[length];
        int at = 0;
        for (byte[] item : encodedItems) {
            System.arraycopy(item, 0, payload, at, item.length);
            at += item.length;
        }
        return withHeader(LIST_OFFSET, payload);
    }

    private static byte[] withHeader(int offset, byte[] payload) {
        byte[] header;
        if (payload.length < 56) {
            header = new byte[] {(byte) (offset + payload.length)};
        } else {
            byte[] length = minimalBigEndian(BigInteger.valueOf(payload.length));
            header = new byte[1 + length.length];
            header[0] = (byte) (offset + 55 + length.length);
            System.arraycopy(length, 0, header, 1, length.length);
        }
        byte[] out = new byte[header.length + payload.length];
        System.arraycopy(header, 0, out, 0, header.length);
        System.arraycopy(payload, 0, out, header.length, payload.length);
        return out;
    }

    private static byte[] minimalBigEndian(BigInteger value) {
        if (value.signum() == 0) {
            return new byte[0];
        }
        byte[] raw = value.toByteArray();
        // toByteArray adds a sign byte when the top bit is set; RLP integers are unsigned.
        if (raw[0] == 0) {
            byte[] trimmed = new byte[raw.length - 1];
            System.arraycopy(raw, 1, trimmed, 0, trimmed.length);
            return trimmed;
        }
        return raw;
    }
}
