package dev.keyhaven.policy;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The declared shape of what a keyword holds, for {@link Vocabulary}: which fields a struct has and what they hold,
 * what a list's elements are. The server declares one per keyword it binds, so a policy naming anything else is
 * refused when it is written, rather than evaluating to an error on every activity.
 *
 * <p>{@link #ANY} is for values whose shape depends on data (a contract call's arguments, an EIP-712 message), and
 * {@link MapOf} for structs whose keys do (arguments by name): the checker reads no further into either.
 */
public sealed interface ValueType {
    Scalar BOOL = new Scalar("bool");
    Scalar INT = new Scalar("int");
    Scalar STRING = new Scalar("string");
    Scalar TIMESTAMP = new Scalar("timestamp");
    Any ANY = new Any();

    /** How the language's documentation names the type, for messages. */
    String name();

    static ListOf listOf(ValueType element) {
        return new ListOf(element);
    }

    static StructOf struct(Map<String, ? extends ValueType> fields) {
        return new StructOf(Map.copyOf(fields));
    }

    static MapOf mapOf(ValueType values) {
        return new MapOf(values);
    }

    /**
     * Why {@code value} does not have this shape (the path of the first part that does not, e.g.
     * {@code .instructions[2].accounts: a string is not a list}), or empty when it does. A struct may leave declared
     * fields out but may not add others; an {@link UnreadableValue} fits anywhere. For tests of what a server binds.
     */
    default Optional<String> mismatch(Value value) {
        return Shapes.mismatch(this, value, "");
    }

    /** {@code bool}, {@code int}, {@code string} or {@code timestamp}. */
    record Scalar(String name) implements ValueType {}

    /** A {@code list<T>}. */
    record ListOf(ValueType element) implements ValueType {
        public ListOf {
            Objects.requireNonNull(element, "element");
        }

        @Override
        public String name() {
            return "list";
        }
    }

    /** A struct with exactly these fields (an activity may leave some out; it never adds others). */
    record StructOf(Map<String, ValueType> fields) implements ValueType {
        public StructOf {
            fields = Map.copyOf(fields);
        }

        @Override
        public String name() {
            return "struct";
        }

        /** These fields and {@code more} (which wins on a name both have). */
        public StructOf with(Map<String, ? extends ValueType> more) {
            Map<String, ValueType> all = new HashMap<>(fields);
            all.putAll(more);
            return new StructOf(all);
        }
    }

    /** A struct whose keys are data (ABI argument names, EIP-712 message fields), each holding {@code values}. */
    record MapOf(ValueType values) implements ValueType {
        public MapOf {
            Objects.requireNonNull(values, "values");
        }

        @Override
        public String name() {
            return "map";
        }
    }

    /** Any value; nothing below it is checked. */
    record Any() implements ValueType {
        @Override
        public String name() {
            return "any value";
        }
    }
}
