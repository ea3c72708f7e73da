package dev.keyhaven.policy;

import java.math.BigInteger;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * A value of the policy language: what keywords are bound to and what expressions compute. Values are immutable
 * and compare by content, so the server can build them once per activity and share them between evaluations.
 *
 * <p>The factories are the intended way to build an environment, e.g. a consensus {@code approvers} keyword:
 * <pre>
 * Value.list(Value.struct(Map.of("id", Value.of(userId), "tags", Value.strings(tagIds))))
 * </pre>
 */
public sealed interface Value
        permits BoolValue, IntValue, StringValue, ListValue, StructValue, TimestampValue, UnreadableValue {

    /** The type's name as the language's documentation spells it, for error messages. */
    String typeName();

    static BoolValue of(boolean value) {
        return value ? BoolValue.TRUE : BoolValue.FALSE;
    }

    static IntValue of(long value) {
        return new IntValue(BigInteger.valueOf(value));
    }

    /** @throws IllegalArgumentException outside the language's range, see {@link IntValue} */
    static IntValue of(BigInteger value) {
        return new IntValue(value);
    }

    static StringValue of(String value) {
        return new StringValue(value);
    }

    static TimestampValue of(Instant value) {
        return new TimestampValue(value);
    }

    static ListValue list(Value... elements) {
        return new ListValue(List.of(elements));
    }

    static ListValue list(List<? extends Value> elements) {
        return new ListValue(List.copyOf(elements));
    }

    /** A {@code list<string>}, the shape of tag ids, user ids and addresses. */
    static ListValue strings(Collection<String> elements) {
        return new ListValue(elements.stream().<Value>map(StringValue::new).toList());
    }

    static StructValue struct(Map<String, ? extends Value> fields) {
        return new StructValue(Map.copyOf(fields));
    }

    /** A value that exists but cannot be read, see {@link UnreadableValue}. */
    static UnreadableValue unreadable(String reason) {
        return new UnreadableValue(reason);
    }
}
