package dev.keyhaven.chains.solana;

import dev.keyhaven.chains.TransactionFormatException;
import java.util.Arrays;

/**
 * A cursor over untrusted bytes that checks every length against what remains before copying anything, and names the
 * field and byte offset in each error.
 */
final class WireReader {
    private final byte[] bytes;
    private int position;

    WireReader(byte[] bytes, int position) {
        this.bytes = bytes;
        this.position = position;
    }

    int position() {
        return position;
    }

    int remaining() {
        return bytes.length - position;
    }

    int peek(String field) {
        need(1, field);
        return bytes[position] & 0xff;
    }

    int u8(String field) {
        int value = peek(field);
        position++;
        return value;
    }

    /**
     * Solana's compact-u16 ("short_vec" length): 7 bits per byte, least significant first, at most 3 bytes. Like the
     * runtime, refuses a value above 65535 and a non-canonical encoding (a trailing zero byte), so each length has
     * one encoding and the message a key signs is the one the network reads.
     */
    int compactU16(String field) {
        int start = position;
        int value = 0;
        for (int shift = 0; ; shift += 7) {
            int b = u8(field);
            if (shift > 0 && b == 0) {
                throw new TransactionFormatException(
                        field + ": non-canonical compact-u16 length at byte offset " + start);
            }
            if (shift == 14) {
                if (b > 0x03) {
                    throw new TransactionFormatException(
                            field + ": compact-u16 length above 65535 at byte offset " + start);
                }
                return value | b << 14;
            }
            value |= (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
    }

    /** A compact-u16 count of elements of at least {@code minimumSize} bytes each, checked against what remains. */
    int count(String field, int minimumSize) {
        int start = position;
        int count = compactU16(field);
        if ((long) count * minimumSize > remaining()) {
            throw new TransactionFormatException(field + ": count " + count + " at byte offset " + start
                    + " needs more bytes than the " + remaining() + " that remain");
        }
        return count;
    }

    byte[] bytes(int length, String field) {
        need(length, field);
        byte[] out = Arrays.copyOfRange(bytes, position, position + length);
        position += length;
        return out;
    }

    void skip(int length, String field) {
        need(length, field);
        position += length;
    }

    void expectEnd(String what) {
        if (remaining() != 0) {
            throw new TransactionFormatException(
                    remaining() + " trailing bytes after the " + what + " at byte offset " + position);
        }
    }

    private void need(int length, String field) {
        if (length > remaining()) {
            throw new TransactionFormatException(field + ": truncated at byte offset " + position + " (needs " + length
                    + " bytes, " + remaining() + " remain)");
        }
    }
}
