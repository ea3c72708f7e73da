package dev.keyhaven.crypto.hd;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.Arrays;

/**
 * Reads the words of a typed or pasted phrase: NFKD-normalises it as BIP-39 requires, splits it on ASCII
 * whitespace (any amount, leading and trailing included) and looks every word up in the English list. Errors name
 * positions, never words.
 */
final class PhraseParser {
    private PhraseParser() {}

    /**
     * The word-list indices of the words of {@code utf8}, in order; the caller wipes the result.
     *
     * @throws InvalidMnemonicException for invalid UTF-8, a word count BIP-39 does not allow, or an unknown word
     */
    static int[] wordIndices(byte[] utf8) {
        byte[] text = nfkd(utf8);
        try {
            int count = countWords(text);
            if (!Mnemonic.WORD_COUNTS.contains(count)) {
                throw new InvalidMnemonicException("mnemonic has " + count + (count == 1 ? " word" : " words")
                        + "; expected 12, 15, 18, 21 or 24");
            }
            int[] indices = new int[count];
            int start = skipSpace(text, 0);
            for (int word = 0; word < count; word++) {
                int end = skipWord(text, start);
                int index = EnglishWordList.indexOf(text, start, end);
                if (index < 0) {
                    Arrays.fill(indices, 0);
                    throw new InvalidMnemonicException("mnemonic word " + (word + 1)
                            + " is not in the BIP-39 English word list" + caseHint(text, start, end));
                }
                indices[word] = index;
                start = skipSpace(text, end);
            }
            return indices;
        } finally {
            if (text != utf8) {
                Arrays.fill(text, (byte) 0);
            }
        }
    }

    /**
     * ASCII is its own NFKD form, so the usual phrase is used in place. Only other text goes through
     * {@link Normalizer}, whose {@code String}s cannot be wiped; such a phrase is not valid English BIP-39 unless
     * NFKD folds it to ASCII (an ideographic or no-break space, full-width letters).
     */
    private static byte[] nfkd(byte[] utf8) {
        boolean ascii = true;
        for (byte b : utf8) {
            ascii &= b >= 0;
        }
        if (ascii) {
            return utf8;
        }
        CharBuffer chars;
        try {
            chars = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(utf8));
        } catch (CharacterCodingException e) {
            throw new InvalidMnemonicException("mnemonic is not valid UTF-8");
        }
        try {
            return Normalizer.normalize(chars, Normalizer.Form.NFKD).getBytes(StandardCharsets.UTF_8);
        } finally {
            Arrays.fill(chars.array(), '\0');
        }
    }

    private static int countWords(byte[] text) {
        int count = 0;
        int start = skipSpace(text, 0);
        while (start < text.length) {
            count++;
            start = skipSpace(text, skipWord(text, start));
        }
        return count;
    }

    private static int skipSpace(byte[] text, int from) {
        int i = from;
        while (i < text.length && isSpace(text[i])) {
            i++;
        }
        return i;
    }

    private static int skipWord(byte[] text, int from) {
        int i = from;
        while (i < text.length && !isSpace(text[i])) {
            i++;
        }
        return i;
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == 0x0b;
    }

    /** The list is all lower case; saying so spares a user who typed "Abandon" a puzzle, and reveals no word. */
    private static String caseHint(byte[] text, int from, int to) {
        for (int i = from; i < to; i++) {
            if (text[i] >= 'A' && text[i] <= 'Z') {
                return " (the words are lower case)";
            }
        }
        return "";
    }
}
