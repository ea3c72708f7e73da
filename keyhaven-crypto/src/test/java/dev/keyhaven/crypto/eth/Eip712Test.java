package dev.keyhaven.crypto.eth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.crypto.Digests;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Behaviour beyond the published vectors: value forms accepted, and the errors for what is refused. */
class Eip712Test {
    private static final String DOMAIN = "\"domain\":{\"name\":\"T\",\"chainId\":1}";

    /** Typed data whose message is {@code {"v": value}} with {@code v} of the given type. */
    private static Map<String, Object> single(String type, Object value) {
        Map<String, Object> typedData = TestJson.object(TestJson.parse("{\"types\":{\"M\":[{\"name\":\"v\",\"type\":\""
                + type + "\"}]},\"primaryType\":\"M\"," + DOMAIN + "}"));
        Map<String, Object> message = new HashMap<>();
        message.put("v", value);
        typedData.put("message", message);
        return typedData;
    }

    private static Map<String, Object> json(String text) {
        return TestJson.object(TestJson.parse(text));
    }

    private static void assertRejected(Map<String, Object> typedData, String messageContains) {
        assertThatThrownBy(() -> Eip712.hash(typedData))
                .isInstanceOf(InvalidTypedDataException.class)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(messageContains);
    }

    @Test
    void acceptsEveryNumberFormTheJsonParserMayProduceForTheSameValue() {
        byte[] expected = Eip712.hash(single("uint256", 1000));
        for (Object same : List.of(
                1000L,
                BigInteger.valueOf(1000),
                new BigDecimal("1000"),
                new BigDecimal("1.000E+3"),
                new BigDecimal("1000.00"),
                1000.0d,
                "1000",
                "0x3e8",
                "0x03E8",
                "0001000")) {
            assertThat(Eip712.hash(single("uint256", same)))
                    .as("%s (%s)", same, same.getClass().getSimpleName())
                    .isEqualTo(expected);
        }
    }

    @Test
    void encodesNegativeIntegersAsTwosComplementSignExtendedTo256Bits() {
        byte[] minusOne = new byte[32];
        Arrays.fill(minusOne, (byte) 0xff);
        byte[] minus32768 = minusOne.clone();
        minus32768[30] = (byte) 0x80;
        minus32768[31] = 0x00;
        assertThat(Eip712.hashMessage(single("int8", -1)))
                .isEqualTo(hashStruct("M(int8 v)", minusOne))
                .isEqualTo(Eip712.hashMessage(single("int8", "-1")));
        assertThat(Eip712.hashMessage(single("int16", "-32768"))).isEqualTo(hashStruct("M(int16 v)", minus32768));
    }

    private static byte[] hashStruct(String encodedType, byte[] word) {
        byte[] typeHash = Digests.keccak256(encodedType.getBytes(StandardCharsets.UTF_8));
        byte[] data = new byte[64];
        System.arraycopy(typeHash, 0, data, 0, 32);
        System.arraycopy(word, 0, data, 32, 32);
        return Digests.keccak256(data);
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', textBlock = """
        uint8|256
        uint8|-1
        int8|128
        int8|-129
        uint256|115792089237316195423570985008687907853269984665640564039457584007913129639936
        int256|57896044618658097711785492504343953926634992332820282019728792003956564819968
        uint160|0x10000000000000000000000000000000000000000
        uint256|1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000
        """)
    void rejectsIntegersOutOfRangeForTheirType(String type, String value) {
        assertRejected(single(type, value), "message.v (" + type + ") is out of range");
    }

    @Test
    void rejectsNumbersThatAreNotIntegers() {
        assertRejected(single("uint256", 1.5d), "must be an integer");
        assertRejected(single("uint256", new BigDecimal("2.5")), "must be an integer");
        assertRejected(single("uint256", Double.NaN), "finite");
        assertRejected(single("uint256", 1e300d), "out of range");
        assertRejected(single("uint256", new BigDecimal("1E+1000000000")), "out of range");
        assertRejected(single("uint256", "1e3"), "decimal or 0x-prefixed hex");
        assertRejected(single("uint256", "0x"), "decimal or 0x-prefixed hex");
        assertRejected(single("uint256", " 1"), "decimal or 0x-prefixed hex");
        assertRejected(single("uint256", "-0x1"), "decimal or 0x-prefixed hex");
        assertRejected(single("uint256", true), "must be a number");
    }

    @Test
    void refusesVeryLongNumericStringsWithoutParsingThem() {
        assertRejected(single("uint256", "9".repeat(1_000_000)), "out of range");
        assertRejected(single("uint256", "0x" + "f".repeat(1_000_000)), "out of range");
    }

    @Test
    void acceptsLowerUpperAndChecksummedAddressesAsTheSameValue() {
        byte[] expected = Eip712.hash(single("address", "0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826"));
        assertThat(Eip712.hash(single("address", "0xCD2A3D9F938E13CD947EC05ABC7FE734DF8DD826")))
                .isEqualTo(expected);
        assertThat(Eip712.hash(single("address", "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826")))
                .isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
        0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD827|has an invalid EIP-55 checksum
        0xcD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826|has an invalid EIP-55 checksum
        cd2a3d9f938e13cd947ec05abc7fe734df8dd826|must be 0x followed by 40 hex digits
        0xcd2a3d9f938e13cd947ec05abc7fe734df8dd8|must be 0x followed by 40 hex digits
        0xcd2a3d9f938e13cd947ec05abc7fe734df8dd82600|must be 0x followed by 40 hex digits
        0xzd2a3d9f938e13cd947ec05abc7fe734df8dd826|must be 0x followed by 40 hex digits
        """)
    void rejectsMalformedAddresses(String address, String problem) {
        assertRejected(single("address", address), "message.v (address) " + problem);
    }

    @Test
    void requiresBytesNToBeExactlyNBytesAndRightPadsThem() {
        byte[] fourBytes = Eip712.hash(single("bytes4", "0xa9059cbb"));
        assertThat(fourBytes).isNotEqualTo(Eip712.hash(single("bytes4", "0xa9059cbc")));
        assertRejected(single("bytes4", "0xa9059c"), "must be exactly 4 bytes, got 3");
        assertRejected(single("bytes32", "0x01"), "must be exactly 32 bytes, got 1");
        assertRejected(single("bytes4", "a9059cbb"), "0x-prefixed hex");
        assertRejected(single("bytes4", "0xa9059cbg"), "0x-prefixed hex");
        assertRejected(single("bytes", 16), "0x-prefixed hex");
    }

    @Test
    void acceptsOnlyBooleansForBoolAndStringsForString() {
        assertThat(Eip712.hash(single("bool", true))).isNotEqualTo(Eip712.hash(single("bool", false)));
        assertRejected(single("bool", "true"), "message.v (bool) must be true or false");
        assertRejected(single("bool", 1), "must be true or false");
        assertRejected(single("string", 10), "message.v (string) must be a string");
    }

    @Test
    void checksTheLengthOfFixedSizeArrays() {
        assertThat(Eip712.hash(single("uint8[2]", List.of(1, 2))))
                .isNotEqualTo(Eip712.hash(single("uint8[]", List.of(1, 2))));
        assertRejected(
                single("uint8[2]", List.of(1, 2, 3)), "message.v (uint8[2]) must have exactly 2 elements, has 3");
        assertRejected(single("uint8[]", "0x0102"), "message.v (uint8[]) must be an array");
        assertRejected(
                single("uint8[][2]", List.of(List.of(1), List.of(2, 300))), "message.v[1][1] (uint8) is out of range");
    }

    @Test
    void treatsAMissingOrNullMemberAsAnErrorLikeViem() {
        Map<String, Object> missing = single("uint256", 1);
        TestJson.object(missing.get("message")).clear();
        assertRejected(missing, "message.v (uint256) is missing");
        assertRejected(single("string", null), "message.v (string) is missing");
        Map<String, Object> nullStruct =
                json("{\"types\":{\"M\":[{\"name\":\"p\",\"type\":\"P\"}],\"P\":[{\"name\":\"x\",\"type\":\"bool\"}]},"
                        + "\"primaryType\":\"M\"," + DOMAIN + ",\"message\":{\"p\":null}}");
        assertRejected(nullStruct, "message.p (P) is missing");
        assertRejected(single("uint8[]", Arrays.asList(1, null)), "message.v[1] (uint8) is missing");
    }

    @Test
    void ignoresMessageMembersTheTypeDoesNotDeclare() {
        Map<String, Object> extra = single("uint256", 1);
        TestJson.object(extra.get("message")).put("unused", List.of("anything"));
        assertThat(Eip712.hash(extra)).isEqualTo(Eip712.hash(single("uint256", 1)));
    }

    @Test
    void namesTheMissingTopLevelPart() {
        assertRejected(json("{\"primaryType\":\"M\"," + DOMAIN + ",\"message\":{}}"), "types is missing");
        assertRejected(
                json("{\"types\":{\"M\":[]}," + DOMAIN + ",\"message\":{}}"), "primaryType must be a non-empty string");
        assertRejected(json("{\"types\":{\"M\":[]},\"primaryType\":\"M\",\"message\":{}}"), "domain is missing");
        assertRejected(json("{\"types\":{\"M\":[]},\"primaryType\":\"M\"," + DOMAIN + "}"), "message is missing");
        assertRejected(
                json("{\"types\":[],\"primaryType\":\"M\"," + DOMAIN + ",\"message\":{}}"), "types must be an object");
        assertRejected(
                json("{\"types\":{\"M\":[]},\"primaryType\":\"N\"," + DOMAIN + ",\"message\":{}}"),
                "primaryType 'N' is not defined in types");
    }

    @Test
    void namesUnknownAndMalformedTypes() {
        assertRejected(single("uint", 1), "types.M.v: unknown type 'uint'");
        assertRejected(single("int", 1), "unknown type 'int'");
        assertRejected(single("uint7", 1), "unknown type 'uint7'");
        assertRejected(single("uint264", 1), "unknown type 'uint264'");
        assertRejected(single("bytes0", "0x"), "unknown type 'bytes0'");
        assertRejected(single("bytes33", "0x"), "unknown type 'bytes33'");
        assertRejected(single("Person", Map.of()), "unknown type 'Person'");
        assertRejected(single("uint8[0]", List.of()), "unknown type 'uint8[0]'");
        assertRejected(single("uint8[-1]", List.of()), "unknown type 'uint8[-1]'");
        assertRejected(single("function", "0x"), "unknown type 'function'");
        // An unknown element type is refused even when the array is empty and so would contribute no value.
        assertRejected(single("Missing[]", List.of()), "unknown type 'Missing[]'");
        assertRejected(
                json("{\"types\":{\"M\":[{\"name\":\"v\"}]},\"primaryType\":\"M\"," + DOMAIN + ",\"message\":{}}"),
                "types.M[0]: must have string name and type");
    }

    @Test
    void refusesAStructNamedLikeASolidityType() {
        Map<String, Object> typedData = json("{\"types\":{\"M\":[{\"name\":\"v\",\"type\":\"uint256\"}],"
                + "\"uint256\":[{\"name\":\"x\",\"type\":\"bool\"}]},\"primaryType\":\"M\"," + DOMAIN
                + ",\"message\":{\"v\":1}}");
        assertRejected(typedData, "struct name 'uint256' collides with a Solidity type");
    }

    @Test
    void infersTheDomainTypeFromTheDomainsNonNullFieldsWhenTypesLacksIt() {
        String explicitDomainType = "\"EIP712Domain\":[{\"name\":\"name\",\"type\":\"string\"},"
                + "{\"name\":\"chainId\",\"type\":\"uint256\"}],";
        String rest = "\"M\":[]},\"primaryType\":\"M\",\"message\":{},";
        Map<String, Object> explicit =
                json("{\"types\":{" + explicitDomainType + rest + "\"domain\":{\"name\":\"T\",\"chainId\":1}}");
        Map<String, Object> inferred =
                json("{\"types\":{" + rest + "\"domain\":{\"chainId\":\"1\",\"version\":null,\"name\":\"T\"}}");
        assertThat(Eip712.hash(inferred)).isEqualTo(Eip712.hash(explicit));
    }

    @Test
    void ignoresTheMessageWhenThePrimaryTypeIsTheDomain() {
        Map<String, Object> withMessage = json(
                "{\"types\":{\"M\":[]},\"primaryType\":\"EIP712Domain\"," + DOMAIN + ",\"message\":{\"anything\":1}}");
        Map<String, Object> withoutMessage = json("{\"types\":{},\"primaryType\":\"EIP712Domain\"," + DOMAIN + "}");
        assertThat(Eip712.hash(withMessage)).isEqualTo(Eip712.hash(withoutMessage));
    }

    @Test
    void refusesValuesNestedDeeperThanTheLimitInsteadOfOverflowingTheStack() {
        Map<String, Object> types = json("{\"Node\":[{\"name\":\"next\",\"type\":\"Node[]\"}]}");
        Map<String, Object> value = new HashMap<>();
        value.put("next", new ArrayList<>());
        for (int i = 0; i < 10_000; i++) {
            Map<String, Object> outer = new HashMap<>();
            outer.put("next", new ArrayList<>(List.of(value)));
            value = outer;
        }
        Map<String, Object> typedData = new HashMap<>(json("{\"primaryType\":\"Node\"," + DOMAIN + "}"));
        typedData.put("types", types);
        typedData.put("message", value);
        assertRejected(typedData, "nested more than " + Eip712Encoder.MAX_DEPTH + " levels deep");
    }

    @Test
    void errorMessagesPointIntoArraysAndNestedStructs() {
        Map<String, Object> typedData = json(
                "{\"types\":{\"Mail\":[{\"name\":\"to\",\"type\":\"Person[]\"}],"
                        + "\"Person\":[{\"name\":\"wallet\",\"type\":\"address\"}]},\"primaryType\":\"Mail\"," + DOMAIN
                        + ",\"message\":{\"to\":[{\"wallet\":\"0x0000000000000000000000000000000000000000\"},{\"wallet\":\"0x12\"}]}}");
        assertRejected(typedData, "message.to[1].wallet (address)");
    }

    @Test
    void errorsInTheDomainNameTheDomain() {
        Map<String, Object> typedData = json(
                "{\"types\":{\"M\":[]},\"primaryType\":\"M\",\"message\":{}," + "\"domain\":{\"chainId\":\"one\"}}");
        assertRejected(typedData, "domain.chainId (uint256)");
    }
}
