package dev.keyhaven.chains.solana;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.crypto.Digests;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads an {@link AnchorIdl} from its JSON, in either format, and checks it is consistent. Only what decoding needs is
 * read: instructions (name, discriminator, accounts, args) and type definitions; docs, events, errors, constants and
 * metadata are ignored.
 */
final class AnchorIdlReader {
    static final int MAX_LENGTH = 1 << 20;
    static final int MAX_NESTING = 64;
    static final int MAX_DISCRIMINATOR = 32;
    /** Anchor's default discriminators are this long. */
    private static final int SIGHASH_SIZE = 8;

    /** Duplicate keys are refused: two readers of the same IDL could otherwise take different values. */
    private static final JsonMapper JSON = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_NESTING)
                            .build())
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .build())
            .build();

    private final IdlTypeReader typeReader = new IdlTypeReader();

    private AnchorIdlReader() {}

    static AnchorIdl read(String json) {
        Objects.requireNonNull(json, "json");
        if (json.length() > MAX_LENGTH) {
            throw new TransactionFormatException(
                    "the IDL is " + json.length() + " characters; Keyhaven reads IDLs of " + "at most " + MAX_LENGTH);
        }
        return new AnchorIdlReader().idl(tree(json));
    }

    private static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (StreamConstraintsException e) {
            throw new TransactionFormatException("the IDL is beyond Keyhaven's JSON limits (nesting " + MAX_NESTING
                    + " levels deep, numbers of 1000 digits)");
        } catch (JacksonException e) {
            TokenStreamLocation at = e.getLocation();
            String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
            throw new TransactionFormatException("the IDL is not valid JSON" + where);
        }
    }

    private AnchorIdl idl(JsonNode root) {
        if (root == null || !root.isObject()) {
            throw new TransactionFormatException("the IDL is not a JSON object");
        }
        Map<String, IdlTypeDef> types = new LinkedHashMap<>();
        JsonNode typeList = IdlJson.array(root, "types", "");
        for (int i = 0; i < typeList.size(); i++) {
            define(types, typeList.get(i), "types[" + i + "]");
        }
        JsonNode accounts = root.get("accounts");
        if (accounts != null) {
            // Before Anchor 0.30, account structs were declared here rather than in types, and args may name them.
            JsonNode accountList = IdlJson.array(root, "accounts", "");
            for (int i = 0; i < accountList.size(); i++) {
                JsonNode account = IdlJson.object(accountList.get(i), "accounts[" + i + "]");
                if (account.has("type")) {
                    define(types, account, "accounts[" + i + "]");
                }
            }
        }
        JsonNode instructionList = IdlJson.array(root, "instructions", "");
        List<IdlInstruction> instructions = new ArrayList<>();
        Map<String, Integer> names = new HashMap<>();
        for (int i = 0; i < instructionList.size(); i++) {
            String path = "instructions[" + i + "]";
            IdlInstruction instruction = instruction(IdlJson.object(instructionList.get(i), path), path);
            Integer earlier = names.putIfAbsent(instruction.name(), i);
            if (earlier != null) {
                throw new TransactionFormatException(
                        "IDL " + path + ": instructions[" + earlier + "] has the same name");
            }
            instructions.add(instruction);
        }
        typeReader.checkReferences(types.keySet());
        checkDiscriminators(instructions);
        return new AnchorIdl(instructions, types);
    }

    private void define(Map<String, IdlTypeDef> types, JsonNode node, String path) {
        JsonNode definition = IdlJson.object(node, path);
        String name = IdlJson.name(definition, path);
        if (types.put(name, typeReader.definition(name, definition, path)) != null) {
            throw new TransactionFormatException("IDL " + path + ": a type of the same name is already defined");
        }
    }

    private IdlInstruction instruction(JsonNode node, String path) {
        String name = IdlJson.name(node, path);
        JsonNode given = node.get("discriminator");
        byte[] discriminator = given == null ? sighash(name) : discriminator(given, path + ".discriminator");
        List<IdlAccountSlot> accounts = AccountSlots.flatten(IdlJson.array(node, "accounts", path), path + ".accounts");
        List<IdlField> args = typeReader.namedFields(IdlJson.array(node, "args", path), path + ".args");
        return new IdlInstruction(name, discriminator, accounts, args);
    }

    /** Anchor's default: the first 8 bytes of SHA-256 of {@code global:} and the name in snake case. */
    static byte[] sighash(String name) {
        byte[] preimage = ("global:" + SnakeCase.of(name)).getBytes(StandardCharsets.UTF_8);
        return Arrays.copyOf(Digests.sha256(preimage), SIGHASH_SIZE);
    }

    private static byte[] discriminator(JsonNode node, String path) {
        if (!node.isArray() || node.isEmpty() || node.size() > MAX_DISCRIMINATOR) {
            throw new TransactionFormatException(
                    "IDL " + path + ": a discriminator is a list of 1 to " + MAX_DISCRIMINATOR + " bytes");
        }
        byte[] out = new byte[node.size()];
        for (int i = 0; i < out.length; i++) {
            JsonNode b = node.get(i);
            if (!b.isIntegralNumber() || !b.canConvertToInt() || b.intValue() < 0 || b.intValue() > 0xff) {
                throw new TransactionFormatException("IDL " + path + "[" + i + "]: not a byte (0 to 255)");
            }
            out[i] = (byte) b.intValue();
        }
        return out;
    }

    /**
     * Refuses two instructions one of whose discriminators starts the other's (Anchor 0.31 allows custom lengths), as
     * the same data would match both. After sorting, such a pair is adjacent.
     */
    private static void checkDiscriminators(List<IdlInstruction> instructions) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < instructions.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparing(i -> instructions.get(i).discriminator(), Arrays::compareUnsigned));
        for (int k = 1; k < order.size(); k++) {
            IdlInstruction first = instructions.get(order.get(k - 1));
            if (first.matches(instructions.get(order.get(k)).discriminator())) {
                throw new TransactionFormatException("IDL instructions[" + order.get(k - 1) + "] and instructions["
                        + order.get(k) + "] have discriminators that the same data matches");
            }
        }
    }
}
