package dev.keyhaven.crypto.address;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** BIP-350's v0–v16 segwit address vectors (they supersede BIP-173's, whose v1+ examples used Bech32). */
class SegwitAddressTest {
    private static final String BIP350 = "bip-0350-test-vectors.txt";

    static Stream<List<String>> validAddresses() {
        return Vectors.bipList(BIP350, "The following list gives valid segwit addresses").stream();
    }

    static Stream<String> invalidAddresses() {
        return Vectors.bipList(BIP350, "The following list gives invalid segwit addresses").stream()
                .map(List::getFirst);
    }

    @ParameterizedTest
    @MethodSource("validAddresses")
    void validAddressDecodesToItsScriptPubKeyAndReEncodesToItsLowercaseForm(List<String> item) {
        String address = item.get(0);
        String hrp = address.toLowerCase(Locale.ROOT).startsWith("bc1") ? "bc" : "tb";

        SegwitAddress.Program program = SegwitAddress.decode(hrp, address);

        assertThat(scriptPubKey(program)).isEqualTo(item.get(1));
        assertThat(SegwitAddress.encode(hrp, program.version(), program.program()))
                .isEqualTo(address.toLowerCase(Locale.ROOT));
    }

    @ParameterizedTest
    @MethodSource("invalidAddresses")
    void invalidAddressIsRejectedOnEveryNetwork(String address) {
        for (String hrp : List.of("bc", "tb", "bcrt")) {
            assertThatThrownBy(() -> SegwitAddress.decode(hrp, address)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void vectorListsAreAllRead() {
        assertThat(validAddresses()).hasSize(8);
        assertThat(invalidAddresses()).hasSize(15);
    }

    @Test
    void addressForAnotherNetworkIsRejected() {
        assertThatThrownBy(() -> SegwitAddress.decode("tb", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void encodingRejectsAVersionZeroProgramThatIsNeitherTwentyNorThirtyTwoBytes() {
        assertThatThrownBy(() -> SegwitAddress.encode("bc", 0, new byte[16]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** OP_0 or OP_1..OP_16, then a direct push of the program. */
    private static String scriptPubKey(SegwitAddress.Program program) {
        int opcode = program.version() == 0 ? 0 : 0x50 + program.version();
        byte[] script = new byte[2 + program.program().length];
        script[0] = (byte) opcode;
        script[1] = (byte) program.program().length;
        System.arraycopy(program.program(), 0, script, 2, program.program().length);
        return HexFormat.of().formatHex(script);
    }
}
