package dev.keyhaven.crypto.hd;

import static dev.keyhaven.crypto.hd.DerivationPath.HARDENED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class DerivationPathTest {
    @Test
    void parsesAllThreeHardenedMarkersAndPrintsThemAsApostrophes() {
        DerivationPath path = DerivationPath.parse("m/44'/60h/0H/0/7");

        assertThat(path.indices()).containsExactly(44 | HARDENED, 60 | HARDENED, HARDENED, 0, 7);
        assertThat(path).hasToString("m/44'/60'/0'/0/7");
    }

    @Test
    void parsesTheMasterKeyPathAsNoIndices() {
        assertThat(DerivationPath.parse("m").indices()).isEmpty();
        assertThat(DerivationPath.parse("m")).hasToString("m");
    }

    @Test
    void acceptsTheLargestIndexWithAndWithoutHardening() {
        DerivationPath path = DerivationPath.parse("m/2147483647/2147483647'");

        assertThat(path.indices()).containsExactly(0x7fffffff, 0xffffffff);
        assertThat(path).hasToString("m/2147483647/2147483647'");
    }

    @Test
    void acceptsLeadingZerosAsTheSameIndexAndDropsThemWhenPrinting() {
        DerivationPath path = DerivationPath.parse("m/044'/00");

        assertThat(path).isEqualTo(DerivationPath.parse("m/44'/0"));
        assertThat(path).hasToString("m/44'/0");
    }

    @ParameterizedTest
    @ValueSource(strings = {"m", "m/0", "m/44'/60'/0'/0/0", "m/2147483647'/1/0'"})
    void canonicalTextParsesBackToTheSamePath(String text) {
        assertThat(DerivationPath.parse(text).toString()).isEqualTo(text);
        assertThat(DerivationPath.parse(DerivationPath.parse(text).toString())).isEqualTo(DerivationPath.parse(text));
    }

    static Stream<Arguments> malformedPaths() {
        String notStart = "path must be \"m\" or start with \"m/\"";
        return Stream.of(
                arguments("", notStart),
                arguments("M/0", notStart),
                arguments("/0", notStart),
                arguments("0/1", notStart),
                arguments(" m/0", notStart),
                arguments("m0", notStart),
                arguments("m\\0", notStart),
                arguments("m/", "path segment 1 is empty"),
                arguments("m//0", "path segment 1 is empty"),
                arguments("m/0/", "path segment 2 is empty"),
                arguments("m/44'/60'/x", "path segment 3 ('x') is not a number"),
                arguments("m/+1", "path segment 1 ('+1') is not a number"),
                arguments("m/-1", "path segment 1 ('-1') is not a number"),
                arguments("m/ 1", "path segment 1 (' 1') is not a number"),
                arguments("m/1 ", "path segment 1 ('1 ') is not a number"),
                arguments("m/1\t", "path segment 1 ('1?') is not a number"),
                arguments("m/1''", "path segment 1 ('1''') is not a number"),
                arguments("m/1h'", "path segment 1 ('1h'') is not a number"),
                arguments("m/'", "path segment 1 (''') is not a number"),
                arguments("m/h", "path segment 1 ('h') is not a number"),
                arguments("m/0x10", "path segment 1 ('0x10') is not a number"),
                arguments("m/1.5", "path segment 1 ('1.5') is not a number"),
                arguments("m/1e3", "path segment 1 ('1e3') is not a number"),
                arguments("m/\u0661", "path segment 1 ('\u0661') is not a number"),
                arguments("m/2147483648", "path segment 1 ('2147483648') is out of range"),
                arguments("m/2147483648'", "path segment 1 ('2147483648'') is out of range"),
                arguments("m/0/99999999999999999999999", "path segment 2 ('99999999999999999999999') is out of range"));
    }

    @ParameterizedTest
    @MethodSource("malformedPaths")
    void rejectsMalformedPathsSayingWhatIsWrong(String text, String message) {
        assertThatThrownBy(() -> DerivationPath.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(message);
    }

    @Test
    void acceptsTwoHundredFiftyFiveLevelsButNotMore() {
        assertThat(DerivationPath.parse("m" + "/0".repeat(255)).indices()).hasSize(255);

        assertThatThrownBy(() -> DerivationPath.parse("m" + "/0".repeat(256)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("path has 256 levels; at most 255 are allowed");
        assertThatThrownBy(() -> new DerivationPath(Collections.nCopies(256, 0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("path has 256 levels; at most 255 are allowed");
    }

    @Test
    void quotesOnlyTheStartOfAnOverlongSegment() {
        assertThatThrownBy(() -> DerivationPath.parse("m/" + "x".repeat(10_000)))
                .hasMessage("path segment 1 ('" + "x".repeat(24) + "…') is not a number");
    }

    @Test
    void keepsItsOwnCopyOfTheIndices() {
        List<Integer> indices = new ArrayList<>(List.of(1, 2));
        DerivationPath path = new DerivationPath(indices);
        indices.set(0, 9);

        assertThat(path.indices()).containsExactly(1, 2);
        assertThatThrownBy(() -> path.indices().add(3)).isInstanceOf(UnsupportedOperationException.class);
    }
}
