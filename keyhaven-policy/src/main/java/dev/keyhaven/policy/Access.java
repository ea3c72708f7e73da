package dev.keyhaven.policy;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/**
 * Reading parts of values: {@code x.field}, {@code x['key']}, {@code x[i]} and {@code x[a..b]}. Strings are indexed by
 * code point, so an index never splits a character; for the hex and base58 strings policies slice, that is the same
 * as indexing bytes.
 */
final class Access {
    private final Budget budget;

    Access(Budget budget) {
        this.budget = budget;
    }

    /** {@code receiver.name}; {@code list.count} without parentheses is the count, as Turnkey's examples write it. */
    Value field(Value receiver, Node receiverNode, String name, int column) {
        return switch (receiver) {
            case UnreadableValue unreadable -> throw unreadable(receiverNode, unreadable, column);
            case StructValue(Map<String, Value> fields) -> structField(fields, receiverNode, name, column);
            case ListValue(List<Value> elements) when name.equals("count") -> Value.of(elements.size());
            default ->
                throw new EvaluationFailure(
                        EvaluationError.Kind.TYPE_MISMATCH,
                        "cannot read field '" + name + "' of '" + Printer.describe(receiverNode) + "', "
                                + Printer.typeOf(receiver),
                        column);
        };
    }

    /** {@code receiver[index]}: a list element, a one-character string, or a struct field by name. */
    Value index(Value receiver, Node receiverNode, Value index, int column) {
        if (index instanceof UnreadableValue unreadable) {
            throw EvaluationFailure.unreadable("an index", unreadable, column);
        }
        return switch (receiver) {
            case UnreadableValue unreadable -> throw unreadable(receiverNode, unreadable, column);
            case ListValue(List<Value> elements) -> {
                long position = position(index, column);
                if (position >= elements.size()) {
                    throw outOfRange("index " + integer(index, column), receiverNode, elements.size(), column);
                }
                yield elements.get((int) position);
            }
            case StringValue(String text) -> {
                long position = position(index, column);
                budget.chargeCharacters((int) Math.min(position, text.length()), column);
                int from = offset(text, 0, position);
                if (from < 0 || from == text.length()) {
                    throw outOfRange("index " + integer(index, column), receiverNode, length(text), column);
                }
                yield Value.of(text.substring(from, offset(text, from, 1)));
            }
            case StructValue(Map<String, Value> fields)
            when index instanceof StringValue(String key) -> structField(fields, receiverNode, key, column);
            case StructValue _ ->
                throw mismatch("a struct is indexed by a string, not " + Printer.typeOf(index), column);
            default ->
                throw mismatch(
                        "cannot index '" + Printer.describe(receiverNode) + "', " + Printer.typeOf(receiver), column);
        };
    }

    /** {@code receiver[start..end]}, end-exclusive; {@code 0 <= start <= end <= length}. */
    Value slice(Value receiver, Node receiverNode, Value start, Value end, int column) {
        if (receiver instanceof UnreadableValue unreadable) {
            throw unreadable(receiverNode, unreadable, column);
        }
        long from = position(start, column);
        long to = position(end, column);
        return switch (receiver) {
            case ListValue(List<Value> elements) -> {
                if (from > to || to > elements.size()) {
                    throw outOfRange(slice(start, end, column), receiverNode, elements.size(), column);
                }
                budget.charge((int) (to - from), column);
                yield Value.list(elements.subList((int) from, (int) to));
            }
            case StringValue(String text) -> {
                budget.chargeCharacters((int) Math.min(to, text.length()), column);
                int fromOffset = from > to ? -1 : offset(text, 0, from);
                int toOffset = fromOffset < 0 ? -1 : offset(text, fromOffset, to - from);
                if (toOffset < 0) {
                    throw outOfRange(slice(start, end, column), receiverNode, length(text), column);
                }
                yield Value.of(text.substring(fromOffset, toOffset));
            }
            default ->
                throw mismatch(
                        "cannot slice '" + Printer.describe(receiverNode) + "', " + Printer.typeOf(receiver), column);
        };
    }

    private static Value structField(Map<String, Value> fields, Node receiverNode, String name, int column) {
        Value value = fields.get(name);
        if (value == null) {
            throw new EvaluationFailure(
                    EvaluationError.Kind.MISSING_FIELD,
                    "missing field '" + name + "' on '" + Printer.describe(receiverNode) + "'",
                    column);
        }
        return value;
    }

    /**
     * An index as a non-negative long, capped at {@code Long.MAX_VALUE} (larger than any list or string, so it fails
     * the caller's bound check).
     */
    private static long position(Value index, int column) {
        BigInteger value = integer(index, column);
        if (value.signum() < 0) {
            throw new EvaluationFailure(
                    EvaluationError.Kind.INDEX_OUT_OF_RANGE, "index " + value + " is negative", column);
        }
        return value.bitLength() < Long.SIZE ? value.longValue() : Long.MAX_VALUE;
    }

    /**
     * The char offset {@code codePoints} code points after {@code from}, or -1 if the string ends first. It walks
     * only as far as it needs: policies slice the head of a long calldata and should not pay for its length.
     */
    private static int offset(String text, int from, long codePoints) {
        int offset = from;
        for (long i = 0; i < codePoints; i++) {
            if (offset >= text.length()) {
                return -1;
            }
            offset += Character.isHighSurrogate(text.charAt(offset))
                            && offset + 1 < text.length()
                            && Character.isLowSurrogate(text.charAt(offset + 1))
                    ? 2
                    : 1;
        }
        return offset;
    }

    private static int length(String text) {
        return text.codePointCount(0, text.length());
    }

    private static String slice(Value start, Value end, int column) {
        return "slice [" + integer(start, column) + ".." + integer(end, column) + "]";
    }

    private static EvaluationFailure outOfRange(String what, Node receiverNode, int length, int column) {
        return new EvaluationFailure(
                EvaluationError.Kind.INDEX_OUT_OF_RANGE,
                what + " is out of range for '" + Printer.describe(receiverNode) + "' of length " + length,
                column);
    }

    private static BigInteger integer(Value index, int column) {
        if (index instanceof IntValue(BigInteger value)) {
            return value;
        }
        if (index instanceof UnreadableValue unreadable) {
            throw EvaluationFailure.unreadable("a slice bound", unreadable, column);
        }
        throw mismatch("an index must be an int, not " + Printer.typeOf(index), column);
    }

    private static EvaluationFailure unreadable(Node receiverNode, UnreadableValue value, int column) {
        return EvaluationFailure.unreadable("'" + Printer.describe(receiverNode) + "'", value, column);
    }

    private static EvaluationFailure mismatch(String message, int column) {
        return new EvaluationFailure(EvaluationError.Kind.TYPE_MISMATCH, message, column);
    }
}
