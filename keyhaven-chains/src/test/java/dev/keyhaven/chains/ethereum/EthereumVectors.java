package dev.keyhaven.chains.ethereum;

import dev.keyhaven.policy.ListValue;
import dev.keyhaven.policy.StructValue;
import dev.keyhaven.policy.UnreadableValue;
import dev.keyhaven.policy.Value;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The vectors in {@code src/test/resources/ethereum} (see the README there for how ethers produced them). */
final class EthereumVectors {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private EthereumVectors() {}

    /** A transaction as ethers serialised it and read its fields back; {@code null} where ethers has no field. */
    record Transaction(
            String name,
            byte[] unsigned,
            byte[] signingHash,
            int type,
            String to,
            BigInteger nonce,
            BigInteger gasLimit,
            BigInteger gasPrice,
            BigInteger maxPriorityFeePerGas,
            BigInteger maxFeePerGas,
            BigInteger maxFeePerBlobGas,
            BigInteger value,
            String data,
            BigInteger chainId) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** A call ethers encoded, with the arguments its decoder returned in the shape Keyhaven binds them. */
    record Call(String abiFile, byte[] calldata, String functionName, String selector, Map<String, Value> arguments) {
        @Override
        public String toString() {
            return abiFile + " " + functionName + " (" + calldata.length + " bytes)";
        }
    }

    static List<Transaction> transactions() {
        List<Transaction> transactions = new ArrayList<>();
        for (JsonNode t : tree("transactions.json").get("transactions")) {
            transactions.add(new Transaction(
                    t.get("name").asString(),
                    bytes(t.get("unsigned")),
                    bytes(t.get("signingHash")),
                    t.get("type").asInt(),
                    t.get("to").isNull() ? null : t.get("to").asString(),
                    integer(t.get("nonce")),
                    integer(t.get("gasLimit")),
                    integer(t.get("gasPrice")),
                    integer(t.get("maxPriorityFeePerGas")),
                    integer(t.get("maxFeePerGas")),
                    integer(t.get("maxFeePerBlobGas")),
                    integer(t.get("value")),
                    t.get("data").asString(),
                    integer(t.get("chainId"))));
        }
        return transactions;
    }

    static Transaction transaction(String name) {
        return transactions().stream()
                .filter(t -> t.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    static List<Call> calls() {
        List<Call> calls = new ArrayList<>();
        for (JsonNode c : tree("abi-calls.json").get("calls")) {
            Map<String, Value> arguments = new HashMap<>();
            c.get("args").properties().forEach(e -> arguments.put(e.getKey(), tagged(e.getValue())));
            calls.add(new Call(
                    c.get("abi").asString(),
                    bytes(c.get("calldata")),
                    c.get("functionName").asString(),
                    c.get("selector").asString(),
                    arguments));
        }
        return calls;
    }

    static Call call(String functionName, int occurrence) {
        return calls().stream()
                .filter(c -> c.functionName().equals(functionName))
                .skip(occurrence)
                .findFirst()
                .orElseThrow();
    }

    static String text(String file) {
        try (InputStream in = EthereumVectors.class.getResourceAsStream("/ethereum/" + file)) {
            if (in == null) {
                throw new IllegalStateException("no test resource ethereum/" + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ContractAbi abi(String file) {
        return ContractAbi.parse(text(file));
    }

    static byte[] hex(String prefixed) {
        return HexFormat.of().parseHex(prefixed.substring(2));
    }

    /** {@code {"int": "…"}}, {@code {"string": …}}, {@code {"bool": …}}, {@code {"list": […]}} or unreadable. */
    private static Value tagged(JsonNode node) {
        String tag = node.propertyNames().iterator().next();
        JsonNode value = node.get(tag);
        return switch (tag) {
            case "int" -> Value.of(new BigInteger(value.asString()));
            case "string" -> Value.of(value.asString());
            case "bool" -> Value.of(value.asBoolean());
            case "list" -> {
                List<Value> elements = new ArrayList<>();
                value.forEach(element -> elements.add(tagged(element)));
                yield Value.list(elements);
            }
            case "unreadable" -> Value.unreadable("expected unreadable");
            default -> throw new IllegalStateException("unknown tag " + tag);
        };
    }

    private static byte[] bytes(JsonNode node) {
        return hex(node.asString());
    }

    private static BigInteger integer(JsonNode node) {
        if (node.isNull()) {
            return null;
        }
        return node.isNumber() ? node.bigIntegerValue() : new BigInteger(node.asString());
    }

    private static JsonNode tree(String file) {
        return JSON.readTree(text(file));
    }

    /** {@code value} with every unreadable value's reason replaced, to compare what is bound, not the wording. */
    static Value withoutReasons(Value value) {
        return switch (value) {
            case UnreadableValue _ -> Value.unreadable("unreadable");
            case ListValue(List<Value> elements) ->
                Value.list(
                        elements.stream().map(EthereumVectors::withoutReasons).toList());
            case StructValue(Map<String, Value> fields) -> {
                Map<String, Value> copy = new HashMap<>();
                fields.forEach((key, field) -> copy.put(key, withoutReasons(field)));
                yield Value.struct(copy);
            }
            default -> value;
        };
    }
}
