package dev.keyhaven.chains.ethereum;

import dev.keyhaven.chains.TransactionFormatException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A contract's interface as uploaded: a standard JSON ABI, of which only the {@code function} entries matter (an
 * entry without a {@code type} is a function, as the Solidity ABI specification says). Events, errors, the
 * constructor, {@code fallback} and {@code receive} are accepted and ignored: none of them is called by selector.
 * Immutable; parse once per upload and share.
 */
public final class ContractAbi {
    /** The server refuses larger uploads; this bound keeps the parser's work bounded whoever calls it. */
    public static final int MAX_CHARS = 400 * 1024;

    private static final int SELECTOR_LENGTH = 4;
    private static final JsonMapper JSON = JsonMapper.builder()
            // A repeated key is read differently by different parsers (first or last wins); refuse it.
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final Map<Selector, AbiFunction> functions;

    private ContractAbi(Map<Selector, AbiFunction> functions) {
        this.functions = Map.copyOf(functions);
    }

    /**
     * Reads a JSON ABI.
     *
     * @throws TransactionFormatException naming what is wrong: not a JSON array of objects, an entry of unknown
     *         {@code type}, a function that does not parse or has inputs Keyhaven refuses (by entry index), two
     *         functions with one selector
     */
    public static ContractAbi parse(String json) {
        if (json.length() > MAX_CHARS) {
            throw new TransactionFormatException(
                    "the ABI has " + json.length() + " characters, more than " + MAX_CHARS);
        }
        JsonNode root = readTree(json);
        if (!root.isArray()) {
            throw new TransactionFormatException("an ABI must be a JSON array of entries, not " + kind(root));
        }
        Map<Selector, AbiFunction> functions = new HashMap<>();
        for (int index = 0; index < root.size(); index++) {
            JsonNode entry = root.get(index);
            if (!entry.isObject()) {
                throw new TransactionFormatException(
                        "ABI entry " + index + " must be a JSON object, not " + kind(entry));
            }
            if (EntryType.of(entry, index) != EntryType.FUNCTION) {
                continue;
            }
            AbiFunction function = AbiFunction.parse(entry, index);
            AbiFunction previous = functions.putIfAbsent(new Selector(function.selector()), function);
            if (previous != null) {
                throw new TransactionFormatException("ABI entries " + previous.entryIndex() + " and " + index
                        + " are functions with the same selector " + Hex.prefixed(function.selector())
                        + ": a call to it could not be told apart");
            }
        }
        return new ContractAbi(functions);
    }

    /**
     * Reads a call to this contract: the function whose selector starts {@code calldata}, and its arguments if the
     * rest is exactly their canonical ABI encoding.
     *
     * @param calldata the transaction's data, at least the 4 bytes of a selector
     */
    public ContractCall read(byte[] calldata) {
        if (calldata.length < SELECTOR_LENGTH) {
            throw new IllegalArgumentException("calldata shorter than a selector is not a call");
        }
        byte[] selector = Arrays.copyOf(calldata, SELECTOR_LENGTH);
        AbiFunction function = functions.get(new Selector(selector));
        if (function == null) {
            return new ContractCall.Unreadable(
                    "the contract's ABI has no function with selector " + Hex.prefixed(selector));
        }
        return function.read(calldata);
    }

    private static JsonNode readTree(String json) {
        try {
            return JSON.readTree(json);
        } catch (JacksonException e) {
            // Jackson's own message quotes the offending token; the position is enough to find it.
            String where = e.getLocation() == null
                    ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column "
                            + e.getLocation().getColumnNr();
            throw new TransactionFormatException(
                    "the ABI is not valid JSON" + where + " (or repeats a key within an object)", e);
        }
    }

    private static String kind(JsonNode node) {
        return "a JSON " + node.getNodeType().name().toLowerCase(Locale.ROOT);
    }

    /** A 4-byte selector as a map key (arrays compare by identity). */
    private record Selector(int bits) {
        Selector(byte[] selector) {
            this(((selector[0] & 0xff) << 24)
                    | ((selector[1] & 0xff) << 16)
                    | ((selector[2] & 0xff) << 8)
                    | (selector[3] & 0xff));
        }
    }
}
