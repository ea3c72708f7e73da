package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.Digests;
import java.util.ArrayList;
import java.util.List;

/**
 * An ordinary (level-0) TON cell, kept only as what a parent needs: its representation hash and depth. That is all
 * address derivation uses, and it lets a wallet's code cell be given by its published hash and depth instead of its
 * bag-of-cells.
 */
final class TonCell {
    private static final int MAX_BITS = 1023;
    private static final int MAX_REFS = 4;

    private final byte[] hash;
    private final int depth;

    private TonCell(byte[] hash, int depth) {
        this.hash = hash;
        this.depth = depth;
    }

    /** A cell known only by its representation hash and depth. */
    static TonCell ofHash(byte[] hash, int depth) {
        if (hash.length != 32 || depth < 0 || depth > 0xffff) {
            throw new IllegalArgumentException("cell hash must be 32 bytes and depth a uint16");
        }
        return new TonCell(hash.clone(), depth);
    }

    static Builder builder() {
        return new Builder();
    }

    byte[] hash() {
        return hash.clone();
    }

    int depth() {
        return depth;
    }

    /** Collects data bits (most significant first) and references, then hashes the standard cell representation. */
    static final class Builder {
        private final byte[] data = new byte[(MAX_BITS + 7) / 8];
        private int bits;
        private final List<TonCell> refs = new ArrayList<>(MAX_REFS);

        private Builder() {}

        Builder bit(boolean value) {
            if (bits == MAX_BITS) {
                throw new IllegalStateException("a cell holds at most " + MAX_BITS + " bits");
            }
            if (value) {
                data[bits / 8] |= (byte) (0x80 >>> (bits % 8));
            }
            bits++;
            return this;
        }

        /** The low {@code width} bits of {@code value}, big-endian; signed values are stored in two's complement. */
        Builder uint(long value, int width) {
            for (int i = width - 1; i >= 0; i--) {
                bit(((value >>> i) & 1) != 0);
            }
            return this;
        }

        Builder bytes(byte[] value) {
            for (byte b : value) {
                uint(b & 0xff, 8);
            }
            return this;
        }

        Builder ref(TonCell cell) {
            if (refs.size() == MAX_REFS) {
                throw new IllegalStateException("a cell has at most " + MAX_REFS + " references");
            }
            refs.add(cell);
            return this;
        }

        /**
         * repr = d1 ‖ d2 ‖ data padded with a 1 bit then 0s to a byte boundary (only when not already aligned) ‖ each
         * reference's depth (uint16 BE) ‖ each reference's hash; hash = SHA-256(repr).
         */
        TonCell build() {
            int dataBytes = (bits + 7) / 8;
            byte[] repr = new byte[2 + dataBytes + refs.size() * (2 + 32)];
            repr[0] = (byte) refs.size();
            repr[1] = (byte) (dataBytes + bits / 8);
            System.arraycopy(data, 0, repr, 2, dataBytes);
            if (bits % 8 != 0) {
                repr[2 + bits / 8] |= (byte) (0x80 >>> (bits % 8));
            }
            int offset = 2 + dataBytes;
            int depth = 0;
            for (TonCell ref : refs) {
                repr[offset++] = (byte) (ref.depth >>> 8);
                repr[offset++] = (byte) ref.depth;
                depth = Math.max(depth, ref.depth + 1);
            }
            for (TonCell ref : refs) {
                System.arraycopy(ref.hash, 0, repr, offset, 32);
                offset += 32;
            }
            return new TonCell(Digests.sha256(repr), depth);
        }
    }
}
