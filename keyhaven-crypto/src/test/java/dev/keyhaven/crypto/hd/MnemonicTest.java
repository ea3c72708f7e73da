package dev.keyhaven.crypto.hd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.function.Function;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MnemonicTest {
    private static final String ABANDON_ABOUT = "abandon ".repeat(11) + "about";

    private static SecretBytes utf8(String text) {
        return SecretBytes.adopt(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(SecretBytes secret) {
        try (secret) {
            return secret.apply(SecretKeyAccess.get(), b -> new String(b, StandardCharsets.UTF_8));
        }
    }

    private static Mnemonic parse(String text) {
        try (SecretBytes phrase = utf8(text)) {
            return Mnemonic.parse(phrase);
        }
    }

    /** Parsing {@code text} fails, and the message quotes none of its words. */
    private static AbstractThrowableAssert<?, ? extends Throwable> assertRejected(String text) {
        Function<String, Boolean> leaks = message -> Arrays.stream(text.strip().split("\\s+"))
                .filter(w -> !w.isEmpty())
                .anyMatch(message::contains);
        return assertThatThrownBy(() -> parse(text))
                .isInstanceOf(InvalidMnemonicException.class)
                .satisfies(e -> assertThat(leaks.apply(e.getMessage()))
                        .as("message quotes the phrase")
                        .isFalse());
    }

    @Test
    void seedWithoutPassphraseIsTheBip39ValueForAbandonAbout() {
        try (Mnemonic mnemonic = parse(ABANDON_ABOUT);
                SecretBytes seed = mnemonic.toSeed()) {
            assertThat(seed.apply(SecretKeyAccess.get(), Vectors::toHex))
                    .isEqualTo("5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6"
                            + "f6da5fc19a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {12, 15, 18, 21, 24})
    void generatesTheRequestedNumberOfWordsAndParsesThemBack(int wordCount) {
        try (Mnemonic generated = Mnemonic.generate(wordCount, new SecureRandom());
                SecretBytes phrase = generated.phrase();
                Mnemonic parsed = Mnemonic.parse(phrase)) {
            assertThat(generated.wordCount()).isEqualTo(wordCount);
            assertThat(text(generated.phrase()).split(" ")).hasSize(wordCount);
            assertThat(parsed.wordCount()).isEqualTo(wordCount);
            assertThat(text(parsed.phrase())).isEqualTo(text(generated.phrase()));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {12, 15, 18, 21, 24})
    void drawsFourThirdsOfTheWordCountInEntropyBytes(int wordCount) {
        FixedRandom random = new FixedRandom(new byte[32]);
        try (Mnemonic _ = Mnemonic.generate(wordCount, random)) {
            assertThat(random.used()).isEqualTo(wordCount * 4 / 3);
        }
    }

    @Test
    void allZeroEntropyGivesThePublishedPhrases() {
        try (Mnemonic twelve = Mnemonic.generate(12, new FixedRandom(new byte[16]));
                Mnemonic twentyFour = Mnemonic.generate(24, new FixedRandom(new byte[32]))) {
            assertThat(text(twelve.phrase())).isEqualTo(ABANDON_ABOUT);
            assertThat(text(twentyFour.phrase())).isEqualTo("abandon ".repeat(23) + "art");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {-12, 0, 3, 11, 13, 25, 48})
    void generateRejectsWordCountsBip39DoesNotAllow(int wordCount) {
        assertThatThrownBy(() -> Mnemonic.generate(wordCount, new SecureRandom()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("mnemonic word count " + wordCount + " is not one of 12, 15, 18, 21 or 24");
    }

    @Test
    void toleratesSurroundingAndRepeatedAsciiWhitespace() {
        String messy = " \t\n" + ABANDON_ABOUT.replace(" ", " \r\n\t ") + " \f\u000b\n";

        try (Mnemonic mnemonic = parse(messy)) {
            assertThat(text(mnemonic.phrase())).isEqualTo(ABANDON_ABOUT);
            assertThat(mnemonic.wordCount()).isEqualTo(12);
        }
    }

    @Test
    void normalisesWithNfkdSoIdeographicSpacesAndFullWidthLettersAreAccepted() {
        String typed = "\uff41\uff42\uff41\uff4e\uff44\uff4f\uff4e\u3000" + "abandon\u00a0".repeat(10) + "about";

        try (Mnemonic mnemonic = parse(typed);
                Mnemonic plain = parse(ABANDON_ABOUT)) {
            assertThat(text(mnemonic.phrase())).isEqualTo(ABANDON_ABOUT);
            assertThat(mnemonic.toSeed().sameAs(plain.toSeed())).isTrue();
        }
    }

    @Test
    void rejectsWordCountsBip39DoesNotAllow() {
        assertRejected(ABANDON_ABOUT + " abandon").hasMessage("mnemonic has 13 words; expected 12, 15, 18, 21 or 24");
        assertRejected("abandon ".repeat(10) + "about")
                .hasMessage("mnemonic has 11 words; expected 12, 15, 18, 21 or 24");
        assertRejected("zoo").hasMessage("mnemonic has 1 word; expected 12, 15, 18, 21 or 24");
        assertRejected(" \n\t ").hasMessage("mnemonic has 0 words; expected 12, 15, 18, 21 or 24");
    }

    @Test
    void rejectsAWordOutsideTheEnglishListNamingOnlyItsPosition() {
        String phrase = "legal winner thank year keyhaven sausage worth useful legal winner thank yellow";

        assertRejected(phrase).hasMessage("mnemonic word 5 is not in the BIP-39 English word list");
    }

    @Test
    void rejectsCapitalisedWordsWithAHintThatTheListIsLowerCase() {
        assertRejected("Abandon " + "abandon ".repeat(10) + "about")
                .hasMessage("mnemonic word 1 is not in the BIP-39 English word list (the words are lower case)");
    }

    @Test
    void rejectsWordsOfOtherLanguagesAfterNormalisation() {
        assertRejected("abandon ".repeat(11) + "caf\u00e9")
                .hasMessage("mnemonic word 12 is not in the BIP-39 English word list");
    }

    @Test
    void rejectsAPhraseWhoseChecksumDoesNotMatch() {
        assertRejected("abandon ".repeat(12).strip()).hasMessage("mnemonic checksum does not match");
        assertRejected("legal winner thank year wave sausage worth useful legal winner thank year")
                .hasMessage("mnemonic checksum does not match");
    }

    @Test
    void rejectsBytesThatAreNotUtf8() {
        try (SecretBytes phrase = SecretBytes.copyOf(new byte[] {'a', (byte) 0xc3, (byte) 0x28})) {
            assertThatThrownBy(() -> Mnemonic.parse(phrase))
                    .isInstanceOf(InvalidMnemonicException.class)
                    .hasMessage("mnemonic is not valid UTF-8");
        }
    }

    @Test
    void leavesTheCallersPhraseOpen() {
        try (SecretBytes phrase = utf8(ABANDON_ABOUT);
                Mnemonic _ = Mnemonic.parse(phrase)) {
            String after = phrase.apply(SecretKeyAccess.get(), b -> new String(b, StandardCharsets.UTF_8));

            assertThat(after).isEqualTo(ABANDON_ABOUT);
        }
    }

    @Test
    void toStringShowsTheWordCountButNoWord() {
        try (Mnemonic mnemonic = parse(ABANDON_ABOUT)) {
            assertThat(mnemonic).hasToString("Mnemonic[12 words, redacted]");
        }
    }

    @Test
    void phraseIsACopyTheCallerCanCloseIndependently() {
        try (Mnemonic mnemonic = parse(ABANDON_ABOUT)) {
            mnemonic.phrase().close();

            assertThat(text(mnemonic.phrase())).isEqualTo(ABANDON_ABOUT);
        }
    }

    @Test
    void closeWipesThePhraseSoNothingCanBeDerivedAfterwards() {
        Mnemonic mnemonic = parse(ABANDON_ABOUT);
        SecretBytes seed = mnemonic.toSeed();
        mnemonic.close();

        assertThatThrownBy(mnemonic::phrase).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(mnemonic::toSeed).isInstanceOf(IllegalStateException.class);
        assertThat(seed.length()).isEqualTo(64);
        seed.close();
        assertThatThrownBy(() -> seed.apply(SecretKeyAccess.get(), b -> b)).isInstanceOf(IllegalStateException.class);
    }
}
