package dev.keyhaven.crypto.hd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.crypto.Digests;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class EnglishWordListTest {
    private static byte[] resource() throws IOException {
        try (InputStream in = EnglishWordList.class.getResourceAsStream("english.txt")) {
            return in.readAllBytes();
        }
    }

    @Test
    void resourceIsThePublishedBip39EnglishList() throws IOException {
        assertThat(HexFormat.of().formatHex(Digests.sha256(resource())))
                .isEqualTo("2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda")
                .isEqualTo(EnglishWordList.SHA256);
    }

    @Test
    void holds2048LowerCaseWordsInStrictlyAscendingOrderSoBinarySearchWorks() throws IOException {
        List<String> words =
                new String(resource(), StandardCharsets.US_ASCII).lines().toList();

        assertThat(words).hasSize(EnglishWordList.SIZE).doesNotHaveDuplicates().isSorted();
        assertThat(words).allMatch(w -> w.matches("[a-z]{3,8}"));
        for (int i = 0; i < words.size(); i++) {
            byte[] word = words.get(i).getBytes(StandardCharsets.US_ASCII);
            assertThat(EnglishWordList.word(i)).isEqualTo(words.get(i));
            assertThat(EnglishWordList.indexOf(word, 0, word.length)).isEqualTo(i);
        }
    }

    @Test
    void findsAWordInsideALargerBufferAndNothingForPrefixesOrExtensions() {
        byte[] text = " aban abandon abandons Abandon zoo".getBytes(StandardCharsets.US_ASCII);

        assertThat(EnglishWordList.indexOf(text, 1, 5)).isEqualTo(-1);
        assertThat(EnglishWordList.indexOf(text, 6, 13)).isZero();
        assertThat(EnglishWordList.indexOf(text, 14, 22)).isEqualTo(-1);
        assertThat(EnglishWordList.indexOf(text, 23, 30)).isEqualTo(-1);
        assertThat(EnglishWordList.indexOf(text, 31, 34)).isEqualTo(2047);
        assertThat(EnglishWordList.indexOf(text, 0, 0)).isEqualTo(-1);
    }
}
