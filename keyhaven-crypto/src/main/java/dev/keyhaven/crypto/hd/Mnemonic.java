package dev.keyhaven.crypto.hd;

import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.text.Normalizer;
import java.util.Arrays;
import java.util.Objects;
import java.util.Set;
import org.bouncycastle.crypto.digests.SHA512Digest;
import org.bouncycastle.crypto.generators.PKCS5S2ParametersGenerator;
import org.bouncycastle.crypto.params.KeyParameter;

/**
 * A BIP-39 English mnemonic held as a secret. It keeps only the normalised phrase (lower-case words from the list,
 * single spaces, UTF-8), so the phrase it hands out and the seed it derives do not depend on how the words were
 * typed. Close it to wipe the phrase.
 */
public final class Mnemonic implements AutoCloseable {
    public static final Set<Integer> WORD_COUNTS = Set.of(12, 15, 18, 21, 24);

    private static final int PBKDF2_ITERATIONS = 2048;
    private static final int SEED_BITS = 512;

    private final SecretBytes phrase;
    private final int wordCount;

    private Mnemonic(SecretBytes phrase, int wordCount) {
        this.phrase = phrase;
        this.wordCount = wordCount;
    }

    /**
     * A new mnemonic of {@code wordCount} words from fresh entropy (4/3 × {@code wordCount} bytes of
     * {@code random}).
     *
     * @throws IllegalArgumentException when {@code wordCount} is not in {@link #WORD_COUNTS}
     */
    public static Mnemonic generate(int wordCount, SecureRandom random) {
        Objects.requireNonNull(random, "random");
        if (!WORD_COUNTS.contains(wordCount)) {
            throw new IllegalArgumentException(
                    "mnemonic word count " + wordCount + " is not one of 12, 15, 18, 21 or 24");
        }
        byte[] entropy = new byte[MnemonicCode.entropyBytes(wordCount)];
        random.nextBytes(entropy);
        int[] indices = MnemonicCode.indices(entropy);
        Arrays.fill(entropy, (byte) 0);
        return fromIndices(indices);
    }

    /**
     * Reads a phrase typed or pasted by a user: NFKD-normalised, words separated by any ASCII whitespace. The
     * caller keeps ownership of {@code phraseUtf8} and closes it.
     *
     * @throws InvalidMnemonicException when the word count, a word or the checksum is wrong; the message never
     *     contains a word of the phrase
     */
    public static Mnemonic parse(SecretBytes phraseUtf8) {
        int[] indices = phraseUtf8.apply(SecretKeyAccess.get(), PhraseParser::wordIndices);
        try {
            Arrays.fill(MnemonicCode.entropy(indices), (byte) 0);
        } catch (InvalidMnemonicException e) {
            Arrays.fill(indices, 0);
            throw e;
        }
        return fromIndices(indices);
    }

    /** Takes ownership of {@code indices} and wipes them. */
    private static Mnemonic fromIndices(int[] indices) {
        int length = indices.length - 1;
        for (int index : indices) {
            length += EnglishWordList.word(index).length();
        }
        byte[] text = new byte[length];
        int at = 0;
        for (int i = 0; i < indices.length; i++) {
            if (i > 0) {
                text[at++] = ' ';
            }
            String word = EnglishWordList.word(indices[i]);
            for (int c = 0; c < word.length(); c++) {
                text[at++] = (byte) word.charAt(c);
            }
        }
        Arrays.fill(indices, 0);
        return new Mnemonic(SecretBytes.adopt(text), indices.length);
    }

    public int wordCount() {
        return wordCount;
    }

    /** A fresh copy of the normalised phrase (single spaces, UTF-8); the caller closes it. */
    public SecretBytes phrase() {
        return phrase.apply(SecretKeyAccess.get(), SecretBytes::copyOf);
    }

    /** The 64-byte BIP-39 seed with no passphrase, as Turnkey wallets use; the caller closes it. */
    public SecretBytes toSeed() {
        return toSeed("");
    }

    /**
     * The BIP-39 seed for {@code passphrase}: PBKDF2-HMAC-SHA512 of the phrase with salt "mnemonic" + NFKD(passphrase).
     * Keyhaven wallets have no passphrase; this exists so the official vectors (passphrase "TREZOR") can be checked.
     */
    SecretBytes toSeed(String passphrase) {
        byte[] salt =
                ("mnemonic" + Normalizer.normalize(passphrase, Normalizer.Form.NFKD)).getBytes(StandardCharsets.UTF_8);
        return phrase.apply(SecretKeyAccess.get(), password -> {
            PKCS5S2ParametersGenerator pbkdf2 = new PKCS5S2ParametersGenerator(new SHA512Digest());
            pbkdf2.init(password, salt, PBKDF2_ITERATIONS);
            KeyParameter seed = (KeyParameter) pbkdf2.generateDerivedMacParameters(SEED_BITS);
            // getKey() returns BouncyCastle's own array, not a copy: adopting it leaves no second copy to wipe.
            return SecretBytes.adopt(seed.getKey());
        });
    }

    /** Wipes the phrase; {@link #phrase()} and {@link #toSeed()} fail afterwards. */
    @Override
    public void close() {
        phrase.close();
    }

    @Override
    public String toString() {
        return "Mnemonic[" + wordCount + " words, redacted]";
    }
}
