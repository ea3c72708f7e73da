package dev.keyhaven.crypto.address;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** BIP-173 and BIP-350 string vectors: decoding, the checksum variant, re-encoding and every listed invalidity. */
class Bech32Test {
    private static final String BIP173 = "bip-0173-test-vectors.txt";
    private static final String BIP350 = "bip-0350-test-vectors.txt";

    static Stream<Arguments> validStrings() {
        return Stream.concat(
                Vectors.bipList(BIP173, "The following strings are valid Bech32:").stream()
                        .map(item -> Arguments.of(item.get(0), Bech32.Variant.BECH32)),
                Vectors.bipList(BIP350, "The following strings are valid Bech32m:").stream()
                        .map(item -> Arguments.of(item.get(0), Bech32.Variant.BECH32M)));
    }

    static Stream<String> invalidStrings() {
        return Stream.concat(
                        Vectors.bipList(BIP173, "The following string are not valid Bech32 (").stream(),
                        Vectors.bipList(BIP350, "The following string are not valid Bech32m").stream())
                .map(List::getFirst);
    }

    @ParameterizedTest
    @MethodSource("validStrings")
    void validStringDecodesUnderItsVariantAndReEncodesToItsLowercaseForm(String text, Bech32.Variant variant) {
        Bech32.Decoded decoded = Bech32.decode(text);

        assertThat(decoded.variant()).isEqualTo(variant);
        assertThat(Bech32.encode(decoded.hrp(), decoded.data(), variant)).isEqualTo(text.toLowerCase(Locale.ROOT));
    }

    @ParameterizedTest
    @MethodSource("invalidStrings")
    void invalidStringIsRejected(String text) {
        assertThatThrownBy(() -> Bech32.decode(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void vectorListsAreAllRead() {
        assertThat(validStrings()).hasSize(14);
        assertThat(invalidStrings()).hasSize(26);
    }

    @Test
    void encodingUnderTheOtherVariantGivesAStringThatDecodesAsThatVariant() {
        Bech32.Decoded decoded = Bech32.decode("a12uel5l");
        String other = Bech32.encode(decoded.hrp(), decoded.data(), Bech32.Variant.BECH32M);

        assertThat(other).isEqualTo("a1lqfn3a");
        assertThat(Bech32.decode(other).variant()).isEqualTo(Bech32.Variant.BECH32M);
    }

    @Test
    void encodingRejectsAnUppercaseHumanReadablePart() {
        assertThatThrownBy(() -> Bech32.encode("BC", new byte[0], Bech32.Variant.BECH32))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void encodingRejectsAStringLongerThanNinetyCharacters() {
        assertThatThrownBy(() -> Bech32.encode("a", new byte[83], Bech32.Variant.BECH32))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Bech32.encode("a", new byte[82], Bech32.Variant.BECH32)).hasSize(90);
    }

    @Test
    void bitConversionRoundTripsAndRejectsNonZeroPadding() {
        byte[] data = {(byte) 0xff, 0x00, 0x7f};
        byte[] fives = Bech32.convertBits(data, 8, 5, true);

        assertThat(Bech32.convertBits(fives, 5, 8, false)).isEqualTo(data);
        fives[fives.length - 1] |= 1;
        assertThatThrownBy(() -> Bech32.convertBits(fives, 5, 8, false)).isInstanceOf(IllegalArgumentException.class);
    }
}
