package dev.keyhaven.chains.solana;

import dev.keyhaven.chains.TransactionFormatException;
import tools.jackson.databind.JsonNode;

/**
 * Reading the parts of an IDL's JSON tree, with errors that name the path of what is wrong (never its content).
 * Paths are written like {@code instructions[2].args[0].type}.
 */
final class IdlJson {
    /** Rust identifiers are short; a bound keeps the names Keyhaven repeats in values and reasons small. */
    static final int MAX_NAME_LENGTH = 256;

    private IdlJson() {}

    static JsonNode object(JsonNode node, String path) {
        if (node == null || !node.isObject()) {
            throw new TransactionFormatException(at(path) + "not a JSON object");
        }
        return node;
    }

    /** The array under {@code key} of {@code object}, which must be there. */
    static JsonNode array(JsonNode object, String key, String path) {
        JsonNode node = required(object, key, path);
        if (!node.isArray()) {
            throw new TransactionFormatException(at(join(path, key)) + "not a JSON array");
        }
        return node;
    }

    static JsonNode required(JsonNode object, String key, String path) {
        JsonNode node = object.get(key);
        if (node == null) {
            throw new TransactionFormatException(at(path) + "no " + key);
        }
        return node;
    }

    /** The non-empty {@code name} of {@code object}. */
    static String name(JsonNode object, String path) {
        return text(object, "name", path);
    }

    static String text(JsonNode object, String key, String path) {
        JsonNode node = required(object, key, path);
        if (!node.isString()
                || node.stringValue().isEmpty()
                || node.stringValue().length() > MAX_NAME_LENGTH) {
            throw new TransactionFormatException(
                    at(join(path, key)) + "not a string of 1 to " + MAX_NAME_LENGTH + " characters");
        }
        return node.stringValue();
    }

    /** Whether any of {@code keys} (the same flag's names in the two formats) is true; absent keys are false. */
    static boolean flag(JsonNode object, String path, String... keys) {
        boolean set = false;
        for (String key : keys) {
            JsonNode node = object.get(key);
            if (node == null) {
                continue;
            }
            if (!node.isBoolean()) {
                throw new TransactionFormatException(at(join(path, key)) + "not true or false");
            }
            set |= node.booleanValue();
        }
        return set;
    }

    static String join(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    private static String at(String path) {
        return path.isEmpty() ? "the IDL: " : "IDL " + path + ": ";
    }
}
