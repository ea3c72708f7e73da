package dev.keyhaven.crypto.hd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The English vectors of trezor/python-mnemonic {@code vectors.json} (passphrase "TREZOR"). */
class MnemonicVectorsTest {
    record Vector(String entropy, String mnemonic, String seed, String xprv) {}

    /**
     * The "english" array holds [entropy, mnemonic, seed, xprv] rows of plain ASCII strings; reading its quoted
     * strings in order is all the JSON parsing this needs.
     */
    static List<Vector> english() {
        String json = Vectors.text("bip39-vectors.json");
        String block = json.substring(json.indexOf("\"english\""), json.indexOf("\"chinese_simplified\""));
        Matcher strings = Pattern.compile("\"([^\"]*)\"").matcher(block);
        List<String> values = new ArrayList<>();
        while (strings.find()) {
            values.add(strings.group(1));
        }
        values.removeFirst(); // the "english" key itself
        List<Vector> vectors = new ArrayList<>();
        for (int i = 0; i < values.size(); i += 4) {
            vectors.add(new Vector(values.get(i), values.get(i + 1), values.get(i + 2), values.get(i + 3)));
        }
        return vectors;
    }

    @Test
    void readsAllTwentyFourEnglishVectors() {
        assertThat(english()).hasSize(24);
        assertThat(english()).extracting(v -> v.mnemonic().split(" ").length).contains(12, 18, 24);
    }

    @ParameterizedTest
    @MethodSource("english")
    void generatingFromTheVectorsEntropyGivesItsMnemonic(Vector vector) {
        byte[] entropy = Vectors.hex(vector.entropy());
        int wordCount = vector.mnemonic().split(" ").length;
        try (Mnemonic mnemonic = Mnemonic.generate(wordCount, new FixedRandom(entropy));
                SecretBytes phrase = mnemonic.phrase()) {
            String text = phrase.apply(SecretKeyAccess.get(), b -> new String(b, StandardCharsets.UTF_8));

            assertThat(text).isEqualTo(vector.mnemonic());
        }
    }

    @ParameterizedTest
    @MethodSource("english")
    void parsingTheMnemonicGivesTheVectorsSeedAndMasterKey(Vector vector) {
        try (SecretBytes phrase = SecretBytes.copyOf(vector.mnemonic().getBytes(StandardCharsets.UTF_8));
                Mnemonic mnemonic = Mnemonic.parse(phrase);
                SecretBytes seed = mnemonic.toSeed("TREZOR");
                ExtendedKey master = HdKeys.deriveExtended(KeyCurve.SECP256K1, seed, DerivationPath.parse("m"))) {
            assertThat(seed.apply(SecretKeyAccess.get(), Vectors::toHex)).isEqualTo(vector.seed());
            byte[] xprv = Base58Check.decode(vector.xprv());
            assertThat(master.chainCode()).isEqualTo(Arrays.copyOfRange(xprv, 13, 45));
            assertThat(master.key()).isEqualTo(Arrays.copyOfRange(xprv, 46, 78));
        }
    }
}
