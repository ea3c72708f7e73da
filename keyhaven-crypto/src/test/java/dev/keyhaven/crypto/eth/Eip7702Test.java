package dev.keyhaven.crypto.eth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.crypto.Digests;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class Eip7702Test {
    private static final HexFormat HEX = HexFormat.of();
    private static final String ADDRESS = "0xbe95c3f554e9fc85ec51be69a3d807a0d55bcf2c";
    /** viem's hashAuthorization test value for chainId 1, this address, nonce 40. */
    private static final String VIEM_DIGEST = "5919da563810a99caf657d42bd10905adbd28b3b89b8a4577efa471e5e4b3914";

    static Stream<Arguments> libraryVectors() {
        return ((List<?>) TestJson.resource("/vectors/eth/eip7702-libraries.json"))
                .stream().map(TestJson::object).map(v -> Arguments.of(Named.of((String) v.get("name"), v)));
    }

    private static Map<String, Object> authorization(Object address, Object chainId, Object nonce) {
        Map<String, Object> map = new HashMap<>();
        map.put("address", address);
        map.put("chainId", chainId);
        map.put("nonce", nonce);
        return map;
    }

    @ParameterizedTest
    @MethodSource("libraryVectors")
    void hashesLikeViemEthersAndEthSigUtil(Map<String, Object> vector) {
        Map<String, Object> json = TestJson.object(vector.get("authorization"));
        String expected = ((String) vector.get("digest")).substring(2);
        assertThat(HEX.formatHex(Eip7702.authorizationDigest(json))).isEqualTo(expected);
        byte[] fromTypedValues = Eip7702.authorizationDigest(
                new BigInteger((String) json.get("chainId")),
                HEX.parseHex(((String) json.get("address")).substring(2)),
                new BigInteger((String) json.get("nonce")));
        assertThat(HEX.formatHex(fromTypedValues)).isEqualTo(expected);
    }

    @Test
    void acceptsChainIdAndNonceAsJsonNumbersDecimalStringsOrHexStrings() {
        for (Map<String, Object> auth : List.of(
                authorization(ADDRESS, 1, 40),
                authorization(ADDRESS, 1L, new BigInteger("40")),
                authorization(ADDRESS, "1", "40"),
                authorization(ADDRESS, "0x1", "0x28"),
                authorization(ADDRESS.toUpperCase(Locale.ROOT).replace("0X", "0x"), 1, 40))) {
            assertThat(HEX.formatHex(Eip7702.authorizationDigest(auth))).isEqualTo(VIEM_DIGEST);
        }
    }

    @Test
    void acceptsViemsOlderContractAddressName() {
        Map<String, Object> auth = authorization(null, 1, 40);
        auth.remove("address");
        auth.put("contractAddress", ADDRESS);
        assertThat(HEX.formatHex(Eip7702.authorizationDigest(auth))).isEqualTo(VIEM_DIGEST);
    }

    @Test
    void encodesChainIdZeroAndNonceZeroAsEmptyRlpStrings() {
        byte[] address = HEX.parseHex(ADDRESS.substring(2));
        // 0x05 ‖ rlp([0x80, 0x94 ‖ address, 0x80]): the list is 1 + 21 + 1 = 23 = 0x17 bytes long.
        byte[] expected = Digests.keccak256(HEX.parseHex("05d780" + "94" + ADDRESS.substring(2) + "80"));
        assertThat(Eip7702.authorizationDigest(BigInteger.ZERO, address, BigInteger.ZERO))
                .isEqualTo(expected);
    }

    @Test
    void rejectsValuesOutsideTheBoundsTheEipSets() {
        byte[] address = new byte[20];
        BigInteger twoTo64 = BigInteger.ONE.shiftLeft(64);
        BigInteger twoTo256 = BigInteger.ONE.shiftLeft(256);
        assertThatThrownBy(() -> Eip7702.authorizationDigest(BigInteger.ONE, address, twoTo64))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nonce");
        assertThatThrownBy(() -> Eip7702.authorizationDigest(BigInteger.ONE, address, BigInteger.valueOf(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nonce");
        assertThatThrownBy(() -> Eip7702.authorizationDigest(twoTo256, address, BigInteger.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("chainId");
        assertThatThrownBy(() -> Eip7702.authorizationDigest(BigInteger.valueOf(-1), address, BigInteger.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("chainId");
        assertThatThrownBy(() -> Eip7702.authorizationDigest(BigInteger.ONE, new byte[19], BigInteger.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("address");
    }

    @Test
    void namesTheBadFieldOfAJsonAuthorization() {
        assertThatThrownBy(() -> Eip7702.authorizationDigest(authorization(null, 1, 0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("address is missing");
        assertThatThrownBy(() -> Eip7702.authorizationDigest(authorization("0x1234", 1, 0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("address ");
        assertThatThrownBy(() ->
                        Eip7702.authorizationDigest(authorization("0xBE95c3f554e9fc85ec51be69a3d807a0d55bcf2c", 1, 0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("checksum");
        assertThatThrownBy(() -> Eip7702.authorizationDigest(authorization(ADDRESS, "one", 0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("chainId ");
        assertThatThrownBy(() -> Eip7702.authorizationDigest(authorization(ADDRESS, 1, 1.5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("nonce ");
        assertThatThrownBy(() -> Eip7702.authorizationDigest(authorization(ADDRESS, 1, null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("nonce is missing");
        assertThatThrownBy(() -> Eip7702.authorizationDigest(authorization(ADDRESS, 1, "18446744073709551616")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nonce");
    }
}
