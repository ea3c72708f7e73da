package dev.keyhaven.crypto.eth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The examples of the RLP specification (ethereum.org "Recursive-length prefix"), plus the length boundaries. */
class RlpTest {
    private static final HexFormat HEX = HexFormat.of();

    private static String hex(byte[] b) {
        return HEX.formatHex(b);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void encodesShortStringsWithOneLengthByte() {
        assertThat(hex(Rlp.encodeBytes(ascii("dog")))).isEqualTo("83646f67");
        assertThat(hex(Rlp.encodeBytes(new byte[0]))).isEqualTo("80");
    }

    @Test
    void encodesASingleByteBelow0x80AsItself() {
        assertThat(hex(Rlp.encodeBytes(new byte[] {0x00}))).isEqualTo("00");
        assertThat(hex(Rlp.encodeBytes(new byte[] {0x0f}))).isEqualTo("0f");
        assertThat(hex(Rlp.encodeBytes(new byte[] {0x7f}))).isEqualTo("7f");
        assertThat(hex(Rlp.encodeBytes(new byte[] {(byte) 0x80}))).isEqualTo("8180");
    }

    @Test
    void switchesToALengthOfLengthPrefixAt56Bytes() {
        assertThat(hex(Rlp.encodeBytes(new byte[55]))).startsWith("b7").hasSize(2 + 110);
        byte[] lorem = ascii("Lorem ipsum dolor sit amet, consectetur adipisicing elit");
        assertThat(lorem).hasSize(56);
        assertThat(hex(Rlp.encodeBytes(lorem))).isEqualTo("b838" + hex(lorem));
        assertThat(hex(Rlp.encodeBytes(new byte[1024]))).startsWith("b90400");
    }

    @Test
    void encodesIntegersAsMinimalBigEndianStringsWithZeroAsTheEmptyString() {
        assertThat(hex(Rlp.encodeInteger(BigInteger.ZERO))).isEqualTo("80");
        assertThat(hex(Rlp.encodeInteger(BigInteger.valueOf(15)))).isEqualTo("0f");
        assertThat(hex(Rlp.encodeInteger(BigInteger.valueOf(127)))).isEqualTo("7f");
        assertThat(hex(Rlp.encodeInteger(BigInteger.valueOf(128)))).isEqualTo("8180");
        assertThat(hex(Rlp.encodeInteger(BigInteger.valueOf(1024)))).isEqualTo("820400");
        assertThat(hex(Rlp.encodeInteger(BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE))))
                .isEqualTo("a0" + "ff".repeat(32));
    }

    @Test
    void rejectsNegativeIntegers() {
        assertThatThrownBy(() -> Rlp.encodeInteger(BigInteger.valueOf(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void encodesListsOfEncodedItems() {
        assertThat(hex(Rlp.encodeList(Rlp.encodeBytes(ascii("cat")), Rlp.encodeBytes(ascii("dog")))))
                .isEqualTo("c88363617483646f67");
        assertThat(hex(Rlp.encodeList())).isEqualTo("c0");
        // The set-theoretical representation of three: [ [], [[]], [ [], [[]] ] ].
        byte[] empty = Rlp.encodeList();
        byte[] one = Rlp.encodeList(empty);
        assertThat(hex(Rlp.encodeList(empty, one, Rlp.encodeList(empty, one)))).isEqualTo("c7c0c1c0c3c0c1c0");
        // A 55-byte payload still fits the short form; 56 bytes need the length-of-length form.
        assertThat(hex(Rlp.encodeList(Rlp.encodeBytes(new byte[54])))).startsWith("f7b6");
        assertThat(hex(Rlp.encodeList(Rlp.encodeBytes(new byte[55])))).startsWith("f838b7");
    }
}
