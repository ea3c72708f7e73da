package dev.keyhaven.crypto.hd;

import dev.keyhaven.crypto.Digests;
import java.util.Arrays;

/**
 * BIP-39's mapping between entropy and word indices: the ENT entropy bits followed by ENT/32 checksum bits (the
 * first bits of SHA-256 of the entropy), read as 11-bit word indices. The arrays passed in and out are secret; the
 * caller wipes them.
 */
final class MnemonicCode {
    private static final int BITS_PER_WORD = 11;

    private MnemonicCode() {}

    /** ENT in bytes for a phrase of {@code wordCount} words: ENT = 32 × words / 3 bits. */
    static int entropyBytes(int wordCount) {
        return wordCount * 4 / 3;
    }

    /** The word indices of {@code entropy} (16, 20, 24, 28 or 32 bytes). */
    static int[] indices(byte[] entropy) {
        // The checksum is at most 8 bits (ENT/32 for ENT ≤ 256), so one byte of the hash is all that is read.
        byte[] bits = Arrays.copyOf(entropy, entropy.length + 1);
        byte[] hash = Digests.sha256(entropy);
        bits[entropy.length] = hash[0];
        int[] indices = new int[entropy.length * 3 / 4];
        for (int w = 0; w < indices.length; w++) {
            indices[w] = read(bits, w * BITS_PER_WORD);
        }
        Arrays.fill(bits, (byte) 0);
        Arrays.fill(hash, (byte) 0);
        return indices;
    }

    /**
     * The entropy that {@code indices} encode.
     *
     * @throws InvalidMnemonicException when the checksum bits do not match the entropy
     */
    static byte[] entropy(int[] indices) {
        int entropyBytes = entropyBytes(indices.length);
        byte[] bits = new byte[entropyBytes + 1];
        for (int w = 0; w < indices.length; w++) {
            write(bits, w * BITS_PER_WORD, indices[w]);
        }
        byte[] entropy = Arrays.copyOf(bits, entropyBytes);
        byte[] hash = Digests.sha256(entropy);
        int checksumBits = indices.length / 3;
        boolean matches = (bits[entropyBytes] & 0xff) >>> (8 - checksumBits) == (hash[0] & 0xff) >>> (8 - checksumBits);
        Arrays.fill(bits, (byte) 0);
        Arrays.fill(hash, (byte) 0);
        if (!matches) {
            Arrays.fill(entropy, (byte) 0);
            throw new InvalidMnemonicException("mnemonic checksum does not match");
        }
        return entropy;
    }

    private static int read(byte[] bits, int position) {
        int value = 0;
        for (int b = position; b < position + BITS_PER_WORD; b++) {
            value = value << 1 | ((bits[b >>> 3] >>> (7 - (b & 7))) & 1);
        }
        return value;
    }

    private static void write(byte[] bits, int position, int value) {
        for (int i = 0; i < BITS_PER_WORD; i++) {
            if ((value >>> (BITS_PER_WORD - 1 - i) & 1) != 0) {
                int b = position + i;
                bits[b >>> 3] |= (byte) (0x80 >>> (b & 7));
            }
        }
    }
}
