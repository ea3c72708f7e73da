package dev.keyhaven.server.api;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * Reads one JSON object of a request field by field and turns every problem into a 400 that names the field by its
 * JSON path ({@code parameters.users[0].apiKeys[1].curveType}).
 *
 * <p>The conventions follow protobuf JSON, which is what the official clients target: 64-bit integers may arrive as
 * strings or numbers, an explicit {@code null} means "not set", and a repeated field sent as {@code null} is empty.
 * Unknown members are ignored, as the real service does, so newer clients keep working.
 */
public final class Params {
    private final JsonNode node;
    private final String path;

    private Params(JsonNode node, String path) {
        this.node = node;
        this.path = path;
    }

    /** Wraps {@code node}, which must be a JSON object, as the field at {@code path}. */
    public static Params of(JsonNode node, String path) {
        if (node == null || !node.isObject()) {
            throw ApiException.badField(path, "must be a JSON object");
        }
        return new Params(node, path);
    }

    public String path() {
        return path;
    }

    public JsonNode node() {
        return node;
    }

    /** The path of a member of this object. */
    public String pathOf(String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    private JsonNode member(String name) {
        JsonNode value = node.get(name);
        return value == null || value.isNull() ? null : value;
    }

    public boolean has(String name) {
        return member(name) != null;
    }

    /** A non-empty string member. */
    public String requiredString(String name) {
        JsonNode value = member(name);
        if (value == null) {
            throw ApiException.badField(pathOf(name), "is required");
        }
        if (!value.isString()) {
            throw ApiException.badField(pathOf(name), "must be a string");
        }
        String text = value.stringValue();
        if (text.isEmpty()) {
            throw ApiException.badField(pathOf(name), "must not be empty");
        }
        return text;
    }

    /** A string member; absent, {@code null} and {@code ""} all read as not set. */
    public Optional<String> optionalString(String name) {
        JsonNode value = member(name);
        if (value == null) {
            return Optional.empty();
        }
        if (!value.isString()) {
            throw ApiException.badField(pathOf(name), "must be a string");
        }
        return value.stringValue().isEmpty() ? Optional.empty() : Optional.of(value.stringValue());
    }

    public boolean optionalBoolean(String name, boolean defaultValue) {
        JsonNode value = member(name);
        if (value == null) {
            return defaultValue;
        }
        if (!value.isBoolean()) {
            throw ApiException.badField(pathOf(name), "must be a boolean");
        }
        return value.booleanValue();
    }

    /** A 32-bit integer member (a JSON number, or a string of digits as protobuf JSON allows). */
    public int requiredInt(String name) {
        JsonNode value = member(name);
        if (value == null) {
            throw ApiException.badField(pathOf(name), "is required");
        }
        return toInt(value, pathOf(name));
    }

    public Optional<Integer> optionalInt(String name) {
        JsonNode value = member(name);
        return value == null ? Optional.empty() : Optional.of(toInt(value, pathOf(name)));
    }

    /** A non-negative 64-bit integer member, sent as a string of digits (or a number). */
    public Optional<Long> optionalUint64(String name) {
        JsonNode value = member(name);
        if (value == null) {
            return Optional.empty();
        }
        String field = pathOf(name);
        String digits;
        if (value.isString()) {
            digits = value.stringValue();
            if (digits.isEmpty()) {
                return Optional.empty();
            }
        } else if (value.isIntegralNumber()) {
            digits = value.bigIntegerValue().toString();
        } else {
            throw ApiException.badField(field, "must be an integer in a string");
        }
        if (!digits.chars().allMatch(c -> c >= '0' && c <= '9') || digits.length() > 19) {
            throw ApiException.badField(field, "must be a non-negative integer");
        }
        BigInteger parsed = new BigInteger(digits);
        if (parsed.bitLength() > 63) {
            throw ApiException.badField(field, "is too large");
        }
        return Optional.of(parsed.longValue());
    }

    /** A string member holding one of the constants of {@code type}. */
    public <E extends Enum<E> & WireEnum> E requiredEnum(String name, Class<E> type) {
        return toEnum(requiredString(name), type, pathOf(name));
    }

    public <E extends Enum<E> & WireEnum> Optional<E> optionalEnum(String name, Class<E> type) {
        return optionalString(name).map(v -> toEnum(v, type, pathOf(name)));
    }

    /** A nested object member. */
    public Params requiredObject(String name) {
        JsonNode value = member(name);
        if (value == null) {
            throw ApiException.badField(pathOf(name), "is required");
        }
        return Params.of(value, pathOf(name));
    }

    public Optional<Params> optionalObject(String name) {
        JsonNode value = member(name);
        return value == null ? Optional.empty() : Optional.of(Params.of(value, pathOf(name)));
    }

    /** A required array of non-empty strings; {@code null} reads as empty. */
    public List<String> requiredStrings(String name) {
        return requiredList(name, (element, at) -> {
            if (!element.isString() || element.stringValue().isEmpty()) {
                throw ApiException.badField(at, "must be a non-empty string");
            }
            return element.stringValue();
        });
    }

    /**
     * A required array of ids: strings, each kept once in first-seen order; an empty array is an error that names
     * {@code what} should be listed ("must name at least one user").
     */
    public List<String> requiredIds(String name, String what) {
        List<String> ids = List.copyOf(new LinkedHashSet<>(requiredStrings(name)));
        if (ids.isEmpty()) {
            throw ApiException.badField(pathOf(name), "must name at least one " + what);
        }
        return ids;
    }

    /** A required array of ids that may be empty, each kept once in first-seen order. */
    public List<String> requiredIdsOrNone(String name) {
        return List.copyOf(new LinkedHashSet<>(requiredStrings(name)));
    }

    /** An optional array of strings; absent and {@code null} read as empty. */
    public List<String> optionalStrings(String name) {
        return has(name) ? requiredStrings(name) : List.of();
    }

    /** A required array of enum constants. */
    public <E extends Enum<E> & WireEnum> List<E> requiredEnums(String name, Class<E> type) {
        return requiredList(name, (element, at) -> {
            if (!element.isString()) {
                throw ApiException.badField(at, "must be a string");
            }
            return toEnum(element.stringValue(), type, at);
        });
    }

    public <E extends Enum<E> & WireEnum> List<E> optionalEnums(String name, Class<E> type) {
        return has(name) ? requiredEnums(name, type) : List.of();
    }

    /** A required array of objects, each read by {@code reader}. */
    public <T> List<T> requiredObjects(String name, Function<Params, T> reader) {
        return requiredList(name, (element, at) -> reader.apply(Params.of(element, at)));
    }

    private <T> List<T> requiredList(String name, ElementReader<T> reader) {
        String field = pathOf(name);
        JsonNode value = node.get(name);
        if (value == null) {
            throw ApiException.badField(field, "is required (send an empty array when unused)");
        }
        if (value.isNull()) {
            return List.of();
        }
        if (!value.isArray()) {
            throw ApiException.badField(field, "must be an array");
        }
        List<T> out = new ArrayList<>(value.size());
        for (int i = 0; i < value.size(); i++) {
            out.add(reader.read(value.get(i), field + "[" + i + "]"));
        }
        return List.copyOf(out);
    }

    private static int toInt(JsonNode value, String field) {
        if (value.isIntegralNumber() && value.canConvertToInt()) {
            return value.intValue();
        }
        if (value.isString() && value.stringValue().matches("-?[0-9]{1,10}")) {
            long parsed = Long.parseLong(value.stringValue());
            if (parsed == (int) parsed) {
                return (int) parsed;
            }
        }
        throw ApiException.badField(field, "must be a 32-bit integer");
    }

    private static <E extends Enum<E> & WireEnum> E toEnum(String value, Class<E> type, String field) {
        return WireEnum.fromWire(type, value)
                .orElseThrow(() -> ApiException.badField(
                        field,
                        "has unknown value '" + abbreviate(value) + "' (expected one of "
                                + Arrays.stream(type.getEnumConstants())
                                        .map(WireEnum::wireName)
                                        .collect(Collectors.joining(", "))
                                + ")"));
    }

    /** Echoes at most a short prefix of caller input in messages. */
    private static String abbreviate(String value) {
        return value.length() <= 64 ? value : value.substring(0, 64) + "…";
    }

    @FunctionalInterface
    private interface ElementReader<T> {
        T read(JsonNode element, String path);
    }
}
