package dev.keyhaven.crypto.eth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.sign.PayloadSigner;
import dev.keyhaven.crypto.sign.Signature;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The vector files of {@code vectors/eth} (see the README there for their sources). */
class Eip712VectorsTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final Map<String, Object> SIG_UTIL =
            TestJson.object(TestJson.resource("/vectors/eth/eth-sig-util-v4.json"));

    static Stream<Arguments> ethSigUtilCases() {
        return cases(SIG_UTIL.get("cases"), "test");
    }

    static Stream<Arguments> viemEthersCases() {
        return cases(TestJson.resource("/vectors/eth/eip712-viem-ethers.json"), "name");
    }

    private static Stream<Arguments> cases(Object list, String nameKey) {
        return ((List<?>) list)
                .stream().map(TestJson::object).map(c -> Arguments.of(Named.of((String) c.get(nameKey), c)));
    }

    @ParameterizedTest
    @MethodSource("ethSigUtilCases")
    void signsEthSigUtilV4VectorsToTheSameSignatureOrRefusesTheOnesViemRefuses(Map<String, Object> vector) {
        Map<String, Object> typedData = TestJson.object(vector.get("typedData"));
        if (vector.containsKey("weReject")) {
            assertThatThrownBy(() -> Eip712.hash(typedData))
                    .isInstanceOf(InvalidTypedDataException.class)
                    .hasMessageContaining((String) vector.get("errorContains"));
            return;
        }
        Signature sig;
        try (SecretBytes key = SecretBytes.adopt(HEX.parseHex((String) SIG_UTIL.get("privateKey")))) {
            sig = PayloadSigner.signDigest(KeyCurve.SECP256K1, key, Eip712.hash(typedData));
        }
        String ethereumSignature = "0x" + sig.rHex() + sig.sHex() + HEX.toHexDigits((byte) (27 + sig.v()));
        assertThat(ethereumSignature).isEqualTo(vector.get("signature"));
    }

    @ParameterizedTest
    @MethodSource("viemEthersCases")
    void hashesLikeViemAndEthers(Map<String, Object> vector) {
        Map<String, Object> typedData = TestJson.object(vector.get("typedData"));
        assertThat("0x" + HEX.formatHex(Eip712.hash(typedData))).isEqualTo(vector.get("digest"));
    }

    @Test
    void hashesTheMinimalTypedMessageLikeEthSigUtil() {
        Map<String, Object> minimal = TestJson.object(TestJson.parse(
                "{\"types\":{\"EIP712Domain\":[]},\"primaryType\":\"EIP712Domain\",\"domain\":{},\"message\":{}}"));
        assertThat(HEX.formatHex(Eip712.hash(minimal))).isEqualTo(SIG_UTIL.get("minimalTypedMessageHash"));
    }
}
