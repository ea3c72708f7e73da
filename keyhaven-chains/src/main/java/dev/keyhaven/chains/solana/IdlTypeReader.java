package dev.keyhaven.chains.solana;

import dev.keyhaven.chains.TransactionFormatException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Reads the types of an IDL (arguments, fields, definitions) in either format, and remembers where each names a
 * defined type so that {@link #checkReferences} can refuse a name the IDL never defines.
 */
final class IdlTypeReader {
    /**
     * A use of a defined type's name.
     *
     * @param owner the definition it appears in, or null in an instruction's arguments
     */
    private record Reference(String name, String path, String owner) {}

    private final List<Reference> references = new ArrayList<>();
    private String owner;

    /** Arguments or struct fields: {@code [{"name": ..., "type": ...}]}, names distinct. */
    List<IdlField> namedFields(JsonNode fields, String path) {
        List<IdlField> out = new ArrayList<>(fields.size());
        Map<String, Integer> names = new HashMap<>();
        for (int i = 0; i < fields.size(); i++) {
            String itemPath = path + "[" + i + "]";
            JsonNode field = IdlJson.object(fields.get(i), itemPath);
            String name = IdlJson.name(field, itemPath);
            Integer earlier = names.putIfAbsent(name, i);
            if (earlier != null) {
                throw new TransactionFormatException(
                        "IDL " + itemPath + ": has the name of " + path + "[" + earlier + "]");
            }
            out.add(new IdlField(name, type(IdlJson.required(field, "type", itemPath), itemPath + ".type")));
        }
        return out;
    }

    IdlType type(JsonNode node, String path) {
        if (node.isString()) {
            return IdlType.Primitive.named(node.stringValue()).orElseThrow(() -> notAType(path));
        }
        if (!node.isObject() || node.size() != 1) {
            throw notAType(path);
        }
        String key = node.propertyNames().iterator().next();
        JsonNode inner = node.get(key);
        String innerPath = path + "." + key;
        return switch (key) {
            case "vec" -> new IdlType.VecOf(type(inner, innerPath));
            case "option" -> new IdlType.OptionOf(type(inner, innerPath));
            case "array" -> array(inner, innerPath);
            case "defined" -> defined(inner, innerPath);
            case "coption" -> {
                type(inner, innerPath);
                yield new IdlType.Unsupported("a COption");
            }
            case "generic" -> new IdlType.Unsupported("a generic type parameter");
            default -> throw notAType(path);
        };
    }

    /** The definition named {@code name} in {@code types} (or, before Anchor 0.30, in {@code accounts}). */
    IdlTypeDef definition(String name, JsonNode definition, String path) {
        owner = name;
        try {
            return definitionBody(definition, path);
        } finally {
            owner = null;
        }
    }

    private IdlTypeDef definitionBody(JsonNode definition, String path) {
        String typePath = path + ".type";
        JsonNode type = IdlJson.object(IdlJson.required(definition, "type", path), typePath);
        String kind = IdlJson.text(type, "kind", typePath);
        IdlTypeDef read = switch (kind) {
            case "struct" -> new IdlTypeDef.StructDef(fields(type.get("fields"), typePath + ".fields"));
            case "enum" ->
                new IdlTypeDef.EnumDef(variants(IdlJson.array(type, "variants", typePath), typePath + ".variants"));
            case "type" ->
                new IdlTypeDef.AliasDef(type(IdlJson.required(type, "alias", typePath), typePath + ".alias"));
            case "alias" ->
                new IdlTypeDef.AliasDef(type(IdlJson.required(type, "value", typePath), typePath + ".value"));
            default ->
                throw new TransactionFormatException("IDL " + typePath + ".kind: not struct, enum, type or " + "alias");
        };
        JsonNode serialization = definition.get("serialization");
        if (serialization != null
                && !(serialization.isString() && serialization.stringValue().equals("borsh"))) {
            return new IdlTypeDef.Undecodable("its values are not stored with Borsh");
        }
        JsonNode generics = definition.get("generics");
        if (generics != null && !generics.isEmpty()) {
            return new IdlTypeDef.Undecodable("it is generic");
        }
        return read;
    }

    /**
     * Refuses a type name that no definition has, naming where it is used, among the types instructions' arguments
     * use (directly or through other types). Published IDLs do leave names undefined in types nothing uses, which
     * never matter for decoding.
     */
    void checkReferences(Set<String> defined) {
        Deque<Reference> pending = new ArrayDeque<>();
        references.stream().filter(reference -> reference.owner() == null).forEach(pending::add);
        Set<String> reached = new HashSet<>();
        while (!pending.isEmpty()) {
            Reference reference = pending.poll();
            if (!defined.contains(reference.name())) {
                throw new TransactionFormatException(
                        "IDL " + reference.path() + ": names a type the IDL does not " + "define");
            }
            if (reached.add(reference.name())) {
                references.stream()
                        .filter(inner -> reference.name().equals(inner.owner()))
                        .forEach(pending::add);
            }
        }
    }

    /** Absent: none. Named: {@code [{"name", "type"}]}. Positional (a tuple, since Anchor 0.30): {@code [type]}. */
    private IdlFields fields(JsonNode fields, String path) {
        if (fields == null) {
            return IdlFields.UNIT;
        }
        if (!fields.isArray()) {
            throw new TransactionFormatException("IDL " + path + ": not a JSON array");
        }
        int named = 0;
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).isObject() && fields.get(i).has("name")) {
                named++;
            }
        }
        if (named == fields.size()) {
            return new IdlFields.Named(namedFields(fields, path));
        }
        if (named > 0) {
            throw new TransactionFormatException("IDL " + path + ": mixes named and positional fields");
        }
        List<IdlType> types = new ArrayList<>(fields.size());
        for (int i = 0; i < fields.size(); i++) {
            types.add(type(fields.get(i), path + "[" + i + "]"));
        }
        return new IdlFields.Tuple(types);
    }

    private List<IdlTypeDef.Variant> variants(JsonNode variants, String path) {
        List<IdlTypeDef.Variant> out = new ArrayList<>(variants.size());
        Map<String, Integer> names = new HashMap<>();
        for (int i = 0; i < variants.size(); i++) {
            String itemPath = path + "[" + i + "]";
            JsonNode variant = IdlJson.object(variants.get(i), itemPath);
            String name = IdlJson.name(variant, itemPath);
            Integer earlier = names.putIfAbsent(name, i);
            if (earlier != null) {
                throw new TransactionFormatException(
                        "IDL " + itemPath + ": has the name of " + path + "[" + earlier + "]");
            }
            out.add(new IdlTypeDef.Variant(name, fields(variant.get("fields"), itemPath + ".fields")));
        }
        return out;
    }

    /** {@code [T, n]}; a generic length ({@code {"generic": "N"}}) is accepted but not decoded. */
    private IdlType array(JsonNode node, String path) {
        if (!node.isArray() || node.size() != 2) {
            throw new TransactionFormatException("IDL " + path + ": an array type is [element type, length]");
        }
        IdlType element = type(node.get(0), path + "[0]");
        JsonNode length = node.get(1);
        if (length.isObject() && length.size() == 1 && length.has("generic")) {
            return new IdlType.Unsupported("an array of generic length");
        }
        if (!length.isIntegralNumber() || !length.canConvertToInt() || length.intValue() < 0) {
            throw new TransactionFormatException(
                    "IDL " + path + "[1]: an array's length is an integer from 0 to " + Integer.MAX_VALUE);
        }
        return new IdlType.ArrayOf(element, length.intValue());
    }

    /** {@code "Name"} before Anchor 0.30, {@code {"name": "Name", "generics": [...]}} since. */
    private IdlType defined(JsonNode node, String path) {
        String name;
        if (node.isString()) {
            name = node.stringValue();
            if (name.isEmpty() || name.length() > IdlJson.MAX_NAME_LENGTH) {
                throw new TransactionFormatException(
                        "IDL " + path + ": not a string of 1 to " + IdlJson.MAX_NAME_LENGTH + " characters");
            }
        } else if (node.isObject()) {
            name = IdlJson.name(node, path);
            JsonNode generics = node.get("generics");
            if (generics != null && !generics.isEmpty()) {
                return new IdlType.Unsupported("a generic type");
            }
        } else {
            throw notAType(path);
        }
        references.add(new Reference(name, path, owner));
        return new IdlType.Defined(name);
    }

    private static TransactionFormatException notAType(String path) {
        return new TransactionFormatException("IDL " + path + ": not a type of the Anchor IDL format");
    }
}
