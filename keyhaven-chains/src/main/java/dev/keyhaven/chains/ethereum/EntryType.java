package dev.keyhaven.chains.ethereum;

import dev.keyhaven.chains.TransactionFormatException;
import tools.jackson.databind.JsonNode;

/** The {@code type} of a JSON ABI entry. Anything else is refused: an unknown kind of entry cannot be judged. */
enum EntryType {
    FUNCTION,
    CONSTRUCTOR,
    RECEIVE,
    FALLBACK,
    EVENT,
    ERROR;

    /** The entry's type; a function when it has none, as the Solidity ABI specification says. */
    static EntryType of(JsonNode entry, int index) {
        JsonNode type = entry.get("type");
        if (type == null) {
            return FUNCTION;
        }
        if (!type.isString()) {
            throw new TransactionFormatException("the type of ABI entry " + index + " must be a string");
        }
        return switch (type.asString()) {
            case "function" -> FUNCTION;
            case "constructor" -> CONSTRUCTOR;
            case "receive" -> RECEIVE;
            case "fallback" -> FALLBACK;
            case "event" -> EVENT;
            case "error" -> ERROR;
            default ->
                throw new TransactionFormatException("ABI entry " + index + " has an unknown type (expected "
                        + "function, constructor, receive, fallback, event or error)");
        };
    }
}
