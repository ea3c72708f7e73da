package dev.keyhaven.crypto.hd;

import dev.keyhaven.crypto.Digests;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;

/**
 * The BIP-39 English word list ({@code bitcoin/bips} {@code bip-0039/english.txt}): 2048 lower-case ASCII words in
 * ascending order, so a word's index is found by binary search directly on the secret bytes, without making a
 * {@code String} (which could not be wiped) of each word the user typed.
 */
final class EnglishWordList {
    static final int SIZE = 2048;

    /**
     * A damaged list would still parse but would turn entropy into phrases no other wallet can restore, so the
     * resource must be byte-identical to the published file.
     */
    static final String SHA256 = "2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda";

    private static final List<String> WORDS = load();

    private EnglishWordList() {}

    static String word(int index) {
        return WORDS.get(index);
    }

    /** The index of the ASCII word {@code bytes[from, to)}, or -1 when it is not in the list. */
    static int indexOf(byte[] bytes, int from, int to) {
        int low = 0;
        int high = SIZE - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int cmp = compare(WORDS.get(mid), bytes, from, to);
            if (cmp < 0) {
                low = mid + 1;
            } else if (cmp > 0) {
                high = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    private static int compare(String word, byte[] bytes, int from, int to) {
        int length = to - from;
        for (int i = 0; i < Math.min(word.length(), length); i++) {
            int diff = word.charAt(i) - (bytes[from + i] & 0xff);
            if (diff != 0) {
                return diff;
            }
        }
        return word.length() - length;
    }

    private static List<String> load() {
        byte[] file;
        try (InputStream in = EnglishWordList.class.getResourceAsStream("english.txt")) {
            if (in == null) {
                throw new IllegalStateException("BIP-39 word list resource english.txt is missing");
            }
            file = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the BIP-39 word list", e);
        }
        if (!HexFormat.of().formatHex(Digests.sha256(file)).equals(SHA256)) {
            throw new IllegalStateException("BIP-39 word list english.txt does not match the published list");
        }
        List<String> words = new String(file, StandardCharsets.US_ASCII).lines().toList();
        if (words.size() != SIZE) {
            throw new IllegalStateException("BIP-39 word list has " + words.size() + " words, not " + SIZE);
        }
        return words;
    }
}
