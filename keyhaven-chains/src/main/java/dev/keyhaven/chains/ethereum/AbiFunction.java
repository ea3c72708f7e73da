package dev.keyhaven.chains.ethereum;

import com.esaulpaugh.headlong.abi.ABIType;
import com.esaulpaugh.headlong.abi.Function;
import com.esaulpaugh.headlong.abi.Tuple;
import com.esaulpaugh.headlong.abi.TupleType;
import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.policy.Value;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * One {@code function} entry of an ABI, parsed by headlong, with the keys its arguments are bound under.
 *
 * @param entryIndex where the entry is in the ABI document, for messages
 * @param function   headlong's function: types, selector, decoding
 * @param keys       the key of each input in {@code contract_call_args}: its name, or its position when unnamed
 */
record AbiFunction(int entryIndex, Function function, List<String> keys) {
    /** Long enough for any signature or reason a person reads; longer ones are cut in messages. */
    private static final int MAX_DESCRIPTION = 160;

    AbiFunction {
        keys = List.copyOf(keys);
    }

    /**
     * Parses a function entry.
     *
     * @throws TransactionFormatException naming the entry, if headlong cannot read it or its inputs are refused
     */
    static AbiFunction parse(JsonNode entry, int index) {
        Function function;
        try {
            // headlong's own Keccak-256 computes the selector: it asks the digest for 4 bytes, which BouncyCastle's
            // MessageDigest refuses.
            function = Function.fromJson(ABIType.FLAGS_NONE, entry.toString(), Function.newDefaultDigest());
        } catch (RuntimeException e) {
            // headlong reports bad types and names with IllegalArgumentException, and JSON it does not expect
            // with Gson's or IllegalStateException; all mean the same to the uploader.
            throw new TransactionFormatException(
                    "ABI entry " + index + " is not a function Keyhaven can read: "
                            + clip(String.valueOf(e.getMessage())),
                    e);
        }
        TupleType<?> inputs = function.getInputs();
        for (int i = 0; i < inputs.size(); i++) {
            Optional<String> refused = InputTypeRules.problem(inputs.get(i));
            if (refused.isPresent()) {
                throw new TransactionFormatException("ABI entry " + index + ", input " + i + ": " + refused.get());
            }
        }
        return new AbiFunction(index, function, argumentKeys(inputs, index));
    }

    String name() {
        return function.getName();
    }

    byte[] selector() {
        return function.selector();
    }

    /**
     * Reads a call of this function. The calldata must be exactly the canonical encoding of its arguments: offsets
     * where an encoder puts them, zero padding, nothing after; anything else is a call Keyhaven cannot vouch for.
     */
    ContractCall read(byte[] calldata) {
        TupleType<?> inputs = function.getInputs();
        Optional<String> misplaced = CanonicalLayout.problem(inputs, calldata);
        if (misplaced.isPresent()) {
            return unreadable(misplaced.get());
        }
        Tuple arguments;
        try {
            arguments = function.decodeCall(calldata);
        } catch (RuntimeException e) {
            // The layout is already checked, so this is a value headlong refuses: a bool that is not 0 or 1, an
            // integer or address with bits beyond its size, non-zero padding. Whatever it is, the call is unread.
            return unreadable(String.valueOf(e.getMessage()));
        }
        if (!function.encodeCall(arguments).equals(ByteBuffer.wrap(calldata))) {
            return unreadable("it does not re-encode to the same bytes (as a string that is not UTF-8 does not)");
        }
        Map<String, Value> values = new HashMap<>();
        for (int i = 0; i < inputs.size(); i++) {
            values.put(keys.get(i), AbiValues.of(inputs.get(i), arguments.get(i)));
        }
        return new ContractCall.Decoded(name(), Hex.prefixed(selector()), values);
    }

    private ContractCall unreadable(String why) {
        // Both quote types from the ABI, which may be long: cut them, the start says enough.
        return new ContractCall.Unreadable(
                "the call data does not decode as " + clip(function.getCanonicalSignature()) + ": " + clip(why));
    }

    /** Names, or positions for unnamed inputs; two inputs under one key could not both be read, so refuse. */
    private static List<String> argumentKeys(TupleType<?> inputs, int index) {
        List<String> keys = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < inputs.size(); i++) {
            String name = inputs.getElementName(i);
            String key = name == null || name.isEmpty() ? Integer.toString(i) : name;
            if (!seen.add(key)) {
                throw new TransactionFormatException("ABI entry " + index + " has two inputs keyed '" + clip(key)
                        + "' (an unnamed input is keyed by its position)");
            }
            keys.add(key);
        }
        return keys;
    }

    private static String clip(String text) {
        return text.length() <= MAX_DESCRIPTION ? text : text.substring(0, MAX_DESCRIPTION) + "…";
    }
}
