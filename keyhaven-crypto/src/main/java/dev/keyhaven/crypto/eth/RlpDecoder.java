package dev.keyhaven.crypto.eth;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads RLP strictly: every length must be canonical (the shortest header, no leading zero bytes in lengths or
 * integers, single bytes below 0x80 not wrapped), every item must end inside its list and nothing may follow the
 * outer item. An unsigned transaction is client input, so anything a different decoder could read differently is
 * refused rather than guessed at.
 */
final class RlpDecoder {
    /** Deeper nesting than any Ethereum transaction has (access lists reach 3) is refused. */
    private static final int MAX_DEPTH = 16;

    private RlpDecoder() {}

    /** The encodings of the items of the list that is all of {@code input}. */
    static List<byte[]> listItems(byte[] input) {
        Header outer = header(input, 0, input.length);
        if (!outer.list()) {
            throw new IllegalArgumentException("expected an RLP list");
        }
        if (outer.end() != input.length) {
            throw new IllegalArgumentException("trailing bytes after the RLP list");
        }
        List<byte[]> items = new ArrayList<>();
        int at = outer.payloadStart();
        while (at < outer.end()) {
            Header item = header(input, at, outer.end());
            validate(input, item, 1);
            items.add(Arrays.copyOfRange(input, at, item.end()));
            at = item.end();
        }
        return items;
    }

    /** The non-negative integer an item encodes (a byte string without leading zeros). */
    static BigInteger integer(byte[] item, String name) {
        Header h = header(item, 0, item.length);
        if (h.list()) {
            throw new IllegalArgumentException(name + " must be an integer, not a list");
        }
        if (h.payloadLength() > 32) {
            throw new IllegalArgumentException(name + " is longer than 32 bytes");
        }
        if (h.payloadLength() > 0 && item[h.payloadStart()] == 0) {
            throw new IllegalArgumentException(name + " has leading zero bytes");
        }
        return new BigInteger(1, Arrays.copyOfRange(item, h.payloadStart(), h.end()));
    }

    private static void validate(byte[] input, Header item, int depth) {
        if (!item.list()) {
            return;
        }
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("RLP nesting is too deep");
        }
        int at = item.payloadStart();
        while (at < item.end()) {
            Header inner = header(input, at, item.end());
            validate(input, inner, depth + 1);
            at = inner.end();
        }
    }

    private record Header(boolean list, int payloadStart, int payloadLength) {
        int end() {
            return payloadStart + payloadLength;
        }
    }

    private static Header header(byte[] in, int at, int limit) {
        if (at >= limit) {
            throw new IllegalArgumentException("RLP item runs past its end");
        }
        int prefix = in[at] & 0xff;
        Header header;
        if (prefix < 0x80) {
            header = new Header(false, at, 1);
        } else if (prefix <= 0xb7) {
            header = new Header(false, at + 1, prefix - 0x80);
            if (header.payloadLength() == 1 && (in.length <= at + 1 || (in[at + 1] & 0xff) < 0x80)) {
                throw new IllegalArgumentException("a single byte below 0x80 must not carry a length prefix");
            }
        } else if (prefix <= 0xbf) {
            header = longHeader(in, at, limit, prefix - 0xb7, false);
        } else if (prefix <= 0xf7) {
            header = new Header(true, at + 1, prefix - 0xc0);
        } else {
            header = longHeader(in, at, limit, prefix - 0xf7, true);
        }
        if (header.end() > limit || header.end() < header.payloadStart()) {
            throw new IllegalArgumentException("RLP item runs past its end");
        }
        return header;
    }

    private static Header longHeader(byte[] in, int at, int limit, int lengthBytes, boolean list) {
        if (at + 1 + lengthBytes > limit || lengthBytes > 4) {
            throw new IllegalArgumentException("RLP length runs past its end");
        }
        if (in[at + 1] == 0) {
            throw new IllegalArgumentException("RLP length has leading zero bytes");
        }
        long length = 0;
        for (int i = 0; i < lengthBytes; i++) {
            length = (length << 8) | (in[at + 1 + i] & 0xff);
        }
        if (length < 56) {
            throw new IllegalArgumentException("RLP long form used for a short item");
        }
        if (length > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("RLP item is too long");
        }
        return new Header(list, at + 1 + lengthBytes, (int) length);
    }
}
