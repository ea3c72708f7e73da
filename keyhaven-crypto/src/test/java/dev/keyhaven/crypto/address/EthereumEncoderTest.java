package dev.keyhaven.crypto.address;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.crypto.KeyCurve;
import java.util.HexFormat;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class EthereumEncoderTest {

    static Stream<String> eip55Addresses() {
        return Vectors.lines("eip-55-test-cases.txt").stream().filter(line -> line.startsWith("0x"));
    }

    @ParameterizedTest
    @MethodSource("eip55Addresses")
    void checksummingTheLowercaseHexReproducesTheEip55TestCase(String address) {
        String lowercase = address.substring(2).toLowerCase(Locale.ROOT);

        assertThat("0x" + EthereumEncoder.checksum(lowercase)).isEqualTo(address);
    }

    @Test
    void allEightEip55TestCasesAreRead() {
        assertThat(eip55Addresses()).hasSize(8);
    }

    @Test
    void compressedAndUncompressedFormsOfAKeyGiveTheSameAddress() {
        byte[] uncompressed = HexFormat.of()
                .parseHex("046e145ccef1033dea239875dd00dfb4fee6e3348b84985c92f103444683bae07b"
                        + "83b5c38e5e2b0c8529d7fa3f64d46daa1ece2d9ac14cab9477d042c84c32ccd0");
        byte[] compressed = dev.keyhaven.crypto.EcCurve.SECP256K1.compress(uncompressed);

        assertThat(Addresses.encode(AddressFormat.ETHEREUM, KeyCurve.SECP256K1, compressed))
                .isEqualTo(Addresses.encode(AddressFormat.ETHEREUM, KeyCurve.SECP256K1, uncompressed))
                .isEqualTo("0x001d3F1ef827552Ae1114027BD3ECF1f086bA0F9");
    }

    @Test
    void tronUsesTheSameAccountBytesAsEthereum() {
        byte[] key = HexFormat.of()
                .parseHex("046e145ccef1033dea239875dd00dfb4fee6e3348b84985c92f103444683bae07b"
                        + "83b5c38e5e2b0c8529d7fa3f64d46daa1ece2d9ac14cab9477d042c84c32ccd0");

        byte[] tron = Base58Check.decode(Base58.BITCOIN, Addresses.encode(AddressFormat.TRON, KeyCurve.SECP256K1, key));

        assertThat(HexFormat.of().formatHex(tron)).isEqualTo("41001d3f1ef827552ae1114027bd3ecf1f086ba0f9");
    }
}
