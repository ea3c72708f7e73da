package dev.keyhaven.chains.ethereum;

import static dev.keyhaven.chains.ethereum.EthereumVectors.abi;
import static dev.keyhaven.chains.ethereum.EthereumVectors.call;
import static dev.keyhaven.chains.ethereum.EthereumVectors.hex;
import static dev.keyhaven.chains.ethereum.EthereumVectors.withoutReasons;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.crypto.Digests;
import dev.keyhaven.policy.IntValue;
import dev.keyhaven.policy.UnreadableValue;
import dev.keyhaven.policy.Value;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Reading contract calls with an uploaded ABI: calldata from ethers' encoder, expectations from its decoder. */
class ContractAbiTest {
    private static final HexFormat HEX = HexFormat.of();

    static List<EthereumVectors.Call> calls() {
        return EthereumVectors.calls();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("calls")
    void decodesEachCallToTheArgumentsEthersDecodes(EthereumVectors.Call vector) {
        ContractCall call = abi(vector.abiFile()).read(vector.calldata());

        assertThat(call).isInstanceOf(ContractCall.Decoded.class);
        ContractCall.Decoded decoded = (ContractCall.Decoded) call;
        assertThat(decoded.functionName()).isEqualTo(vector.functionName());
        assertThat(decoded.selector()).isEqualTo(vector.selector());
        assertThat(withoutReasons(Value.struct(decoded.arguments())))
                .isEqualTo(withoutReasons(Value.struct(vector.arguments())));
    }

    @Test
    void bindsTheWethTransferArgumentsByName() {
        ContractCall call = abi("weth.abi.json").read(call("transfer", 1).calldata());

        assertThat(call)
                .isEqualTo(new ContractCall.Decoded(
                        "transfer",
                        "0xa9059cbb",
                        Map.of(
                                "dst", Value.of("0x08d2b0a37f869ff76bacb5bab3278e26ab7067b7"),
                                "wad", Value.of(500_000_000_000_000_000L))));
    }

    @Test
    void bindsTuplesAsPositionalLists() {
        ContractCall.Decoded call = (ContractCall.Decoded)
                abi("batch.abi.json").read(call("executeBatch", 1).calldata());

        assertThat(call.arguments()).containsOnlyKeys("calls");
        assertThat(call.arguments().get("calls"))
                .isEqualTo(Value.list(
                        Value.list(Value.of("0x" + "a1".repeat(20)), Value.of(0), Value.of("0x01")),
                        Value.list(Value.of("0x" + "a1".repeat(20)), Value.of(0), Value.of("0x"))));
    }

    @Test
    void keysUnnamedInputsByTheirPosition() {
        ContractCall.Decoded call = (ContractCall.Decoded)
                abi("nested.abi.json").read(call("anonymousArgs", 0).calldata());

        assertThat(call.arguments()).containsOnlyKeys("0", "amount", "2");
        assertThat(call.arguments().get("2")).isEqualTo(Value.of("0xa9059cbb"));
    }

    @Test
    void bindsAnInt256BelowTheI128RangeAsUnreadableAndItsNeighboursAsInts() {
        ContractCall.Decoded call = (ContractCall.Decoded)
                abi("nested.abi.json").read(call("extreme", 0).calldata());

        assertThat(call.arguments().get("low")).isInstanceOf(UnreadableValue.class);
        assertThat(call.arguments().get("fine")).isEqualTo(Value.of(IntValue.MIN));
    }

    @Test
    void anUnknownSelectorIsUnreadable() {
        byte[] calldata = hex("0x12345678" + "00".repeat(32));

        assertThat(abi("weth.abi.json").read(calldata))
                .isEqualTo(new ContractCall.Unreadable("the contract's ABI has no function with selector 0x12345678"));
    }

    @Test
    void eventsErrorsAndTheConstructorAreNotCallable() {
        // Transfer(address,address,uint256) is an event in this ABI; its topic's first 4 bytes are not a function.
        assertThat(abi("erc20.abi.json").read(hex("0xddf252ad" + "00".repeat(96))))
                .isInstanceOf(ContractCall.Unreadable.class);
    }

    @Test
    void truncatedCalldataIsUnreadableSayingWhere() {
        byte[] full = call("transfer", 0).calldata();

        ContractCall call = abi("erc20.abi.json").read(Arrays.copyOf(full, full.length - 1));

        assertThat(call)
                .isEqualTo(new ContractCall.Unreadable("the call data does not decode as "
                        + "transfer(address,uint256): the head of a (address,uint256) at byte offset 4: 64 bytes, but "
                        + "only 63 remain"));
    }

    @Test
    void trailingBytesAreUnreadable() {
        byte[] full = call("transfer", 0).calldata();

        ContractCall call = abi("erc20.abi.json").read(Arrays.copyOf(full, full.length + 32));

        assertThat(call)
                .isEqualTo(new ContractCall.Unreadable("the call data does not decode as "
                        + "transfer(address,uint256): 32 bytes follow the arguments, from byte offset 68"));
    }

    @Test
    void anOffsetThatDoesNotPointWhereAnEncoderPutsTheDataIsUnreadable() {
        byte[] calldata = call("executeBatch", 0).calldata();
        // The head of executeBatch is one offset (0x20) to the array; point it one word further, past a copy of it.
        byte[] moved = new byte[calldata.length + 32];
        System.arraycopy(calldata, 0, moved, 0, 36);
        System.arraycopy(calldata, 36, moved, 68, calldata.length - 36);
        moved[35] = 0x40;

        ContractCall call = abi("batch.abi.json").read(moved);

        assertThat(call).isInstanceOf(ContractCall.Unreadable.class);
        assertThat(((ContractCall.Unreadable) call).reason())
                .contains("the offset at byte 4 points to byte 68, " + "not to byte 36 where an encoder puts the data");
    }

    @Test
    void offsetsThatShareDataCannotAmplifyIt() {
        // f(bytes[][]) with 1000 inner arrays all pointing at one array of 1000 strings of 1 kB, all pointing at
        // one string: a lenient decoder would build 1000 * 1000 * 1 kB = 1 GB from about 100 kB.
        ContractAbi abi = ContractAbi.parse("""
                [{"type": "function", "name": "f", "inputs": [{"name": "x", "type": "bytes[][]"}]}]""");
        int n = 1000;
        StringBuilder body = new StringBuilder();
        body.append(word(32)).append(word(n));
        for (int i = 0; i < n; i++) {
            body.append(word(32L * n));
        }
        body.append(word(n));
        for (int i = 0; i < n; i++) {
            body.append(word(32L * n));
        }
        body.append(word(1024)).append("ab".repeat(1024));
        byte[] calldata = HEX.parseHex(selector("f(bytes[][])") + body);

        ContractCall call = abi.read(calldata);

        assertThat(call).isInstanceOf(ContractCall.Unreadable.class);
        assertThat(((ContractCall.Unreadable) call).reason()).contains("the offset at byte");
    }

    @Test
    void dirtyPaddingIsUnreadable() {
        byte[] calldata = call("transfer", 0).calldata();
        calldata[4] = 1; // the address word's first byte lies outside 20 bytes

        ContractCall call = abi("erc20.abi.json").read(calldata);

        assertThat(call).isInstanceOf(ContractCall.Unreadable.class);
        assertThat(((ContractCall.Unreadable) call).reason())
                .startsWith("the call data does not decode as " + "transfer(address,uint256): ");
    }

    @Test
    void aStringThatIsNotUtf8IsUnreadable() {
        ContractAbi abi = ContractAbi.parse("""
                [{"type": "function", "name": "say", "inputs": [{"name": "s", "type": "string"}]}]""");
        byte[] calldata = HEX.parseHex(selector("say(string)") + word(32) + word(2) + "c328" + "00".repeat(30));

        ContractCall call = abi.read(calldata);

        assertThat(call).isInstanceOf(ContractCall.Unreadable.class);
        assertThat(((ContractCall.Unreadable) call).reason()).contains("does not re-encode to the same bytes");
    }

    @Test
    void anEntryWithoutATypeIsAFunction() {
        ContractAbi abi = ContractAbi.parse("""
                [{"name": "withdraw", "inputs": [{"name": "wad", "type": "uint256"}]}]""");

        assertThat(abi.read(call("withdraw", 0).calldata()))
                .isEqualTo(new ContractCall.Decoded(
                        "withdraw", "0x2e1a7d4d", Map.of("wad", Value.of(100_000_000_000_000_000L))));
    }

    @Test
    void refusesADocumentThatIsNotAJsonArrayOfObjects() {
        assertRefused("{\"type\": \"function\"}", "an ABI must be a JSON array of entries, not a JSON object");
        assertRefused(
                "[{\"type\": \"function\", \"name\": \"f\", \"inputs\": []}, 7]",
                "ABI entry 1 must be a JSON object, not a JSON number");
        assertRefused("[{\"type\": \"function\"", "the ABI is not valid JSON at line 1");
        assertRefused("[] []", "the ABI is not valid JSON");
        assertRefused("[{\"type\": \"function\", \"type\": \"event\"}]", "the ABI is not valid JSON");
        assertRefused("[" + " ".repeat(ContractAbi.MAX_CHARS) + "]", "more than " + ContractAbi.MAX_CHARS);
    }

    @Test
    void refusesEntriesOfUnknownOrMalformedType() {
        assertRefused("[{\"type\": \"struct\", \"name\": \"S\"}]", "ABI entry 0 has an unknown type");
        assertRefused("[{\"type\": 1}]", "the type of ABI entry 0 must be a string");
    }

    @Test
    void refusesAFunctionThatDoesNotParseNamingItsEntry() {
        assertRefused("""
                [{"type": "event", "name": "E", "inputs": []},
                 {"type": "function", "name": "f", "inputs": [{"name": "x", "type": "uint7"}]}]""", "ABI entry 1 is not a function Keyhaven can read: ");
        assertRefused(
                "[{\"type\": \"function\", \"name\": \"f(\", \"inputs\": []}]",
                "ABI entry 0 is not a function Keyhaven can read");
        assertRefused("""
                [{"type": "function", "name": "f", "inputs": [{"name": "t", "type": "tuple"}]}]""", "ABI entry 0 is not a function Keyhaven can read");
    }

    @Test
    void refusesTwoFunctionsWithOneSelector() {
        assertRefused("""
                [{"type": "function", "name": "transfer", "inputs": [{"name": "a", "type": "address"},
                                                                     {"name": "b", "type": "uint256"}]},
                 {"type": "function", "name": "transfer", "inputs": [{"name": "to", "type": "address"},
                                                                     {"name": "amount", "type": "uint256"}]}]""", "ABI entries 0 and 1 are functions with the same selector 0xa9059cbb");
    }

    @Test
    void refusesInputsThatWouldBeBoundUnderOneKey() {
        assertRefused("""
                [{"type": "function", "name": "f", "inputs": [{"name": "a", "type": "uint256"},
                                                              {"name": "a", "type": "address"}]}]""", "ABI entry 0 has two inputs keyed 'a'");
        assertRefused("""
                [{"type": "function", "name": "f", "inputs": [{"name": "1", "type": "uint256"},
                                                              {"name": "", "type": "address"}]}]""", "ABI entry 0 has two inputs keyed '1'");
    }

    @Test
    void refusesTypesThatTakeNoBytesOrNestTooDeep() {
        assertRefused("""
                [{"type": "function", "name": "f", "inputs": [{"name": "e", "type": "tuple[]", "components": []}]}]""", "ABI entry 0, input 0: a tuple without components");
        assertRefused("""
                [{"type": "function", "name": "f", "inputs": [{"name": "z", "type": "uint8[0][]"}]}]""", "ABI entry 0, input 0: a fixed-size array of length 0");
        assertRefused(
                "[{\"type\": \"function\", \"name\": \"f\", \"inputs\": [{\"name\": \"d\", \"type\": \"uint8"
                        + "[]".repeat(40) + "\"}]}]",
                "ABI entry 0, input 0: arrays and tuples nest deeper than 32 levels");
        assertRefused(nestedTuples(20, "tuple[]"), "ABI entry 0, input 0: arrays and tuples nest deeper than 32");
        assertRefused(nestedTuples(40, "tuple"), "ABI entry 0 is not a function Keyhaven can read");
        assertRefused(nestedTuples(5000, "tuple"), "the ABI is not valid JSON");
    }

    /** f with one input: {@code depth} levels of tuples (or arrays of them) around a uint8. */
    private static String nestedTuples(int depth, String type) {
        String open = "{\"name\": \"t\", \"type\": \"" + type + "\", \"components\": [";
        return "[{\"type\": \"function\", \"name\": \"f\", \"inputs\": [" + open.repeat(depth)
                + "{\"name\": \"x\", \"type\": \"uint8\"}" + "]}".repeat(depth) + "]}]";
    }

    @Test
    void parsesAnAbiOfFourHundredKilobytes() {
        StringBuilder json = new StringBuilder("[");
        int count = 0;
        String entry = "{\"type\": \"function\", \"name\": \"f%d\", \"stateMutability\": \"nonpayable\", \"outputs\": "
                + "[{\"name\": \"\", \"type\": \"bool\"}], \"inputs\": [{\"name\": \"to\", \"type\": \"address\"}, "
                + "{\"name\": \"orders\", \"type\": \"tuple[]\", \"components\": [{\"name\": \"a\", \"type\": "
                + "\"uint256\"}, {\"name\": \"b\", \"type\": \"bytes\"}]}]}";
        while (json.length() < ContractAbi.MAX_CHARS - 400) {
            json.append(count == 0 ? "" : ",").append(entry.formatted(count++));
        }
        json.append("]");

        long start = System.nanoTime();
        ContractAbi abi = ContractAbi.parse(json.toString());
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertThat(count).isGreaterThan(1000);
        assertThat(millis).as("parse time in ms").isLessThan(5_000);
        assertThat(abi.read(hex("0x00000000"))).isInstanceOf(ContractCall.Unreadable.class);
    }

    private static void assertRefused(String json, String message) {
        assertThatThrownBy(() -> ContractAbi.parse(json))
                .isInstanceOf(TransactionFormatException.class)
                .hasMessageContaining(message);
    }

    private static String word(long value) {
        return "%064x".formatted(value);
    }

    private static String selector(String signature) {
        return HEX.formatHex(Digests.keccak256(signature.getBytes(StandardCharsets.US_ASCII)), 0, 4);
    }
}
