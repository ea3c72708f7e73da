package dev.keyhaven.policy;

import java.util.List;
import java.util.Map;

/**
 * {@code == != < > <= >= in} and {@code contains}. Comparing values of different types is a {@code TYPE_MISMATCH}
 * error, never just false: a policy comparing a number with a string is wrong, and must not silently not match.
 *
 * <p>Equality is structural and checks types wherever it compares: lists are equal when they have the same length and
 * equal elements, structs when they have the same field names and equal fields. Strings are equal when identical, or
 * when both are {@code 0x}-prefixed hex that differs only in letter case (EVM addresses and calldata). Ordering is
 * defined for ints and timestamps only (Turnkey documents it for ints, and for timestamps in time policies).
 */
final class Comparisons {
    private final Budget budget;

    Comparisons(Budget budget) {
        this.budget = budget;
    }

    boolean compare(Node.ComparisonOperator operator, Value left, Value right, int column) {
        return switch (operator) {
            case EQ -> equal(left, right, operator, column);
            case NE -> !equal(left, right, operator, column);
            case LT -> order(left, right, operator, column) < 0;
            case GT -> order(left, right, operator, column) > 0;
            case LE -> order(left, right, operator, column) <= 0;
            case GE -> order(left, right, operator, column) >= 0;
            case IN -> contains(right, left, "'in' needs a list on its right, not ", column);
        };
    }

    /**
     * Whether {@code list} has an element equal to {@code element}. Every element is compared, without stopping at a
     * match, so an element of the wrong type is reported whatever its position.
     */
    boolean contains(Value list, Value element, String problemIfNotList, int column) {
        if (list instanceof UnreadableValue unreadable) {
            throw EvaluationFailure.unreadable("the list", unreadable, column);
        }
        if (!(list instanceof ListValue(List<Value> elements))) {
            throw new EvaluationFailure(
                    EvaluationError.Kind.TYPE_MISMATCH, problemIfNotList + Printer.typeOf(list), column);
        }
        // An element that cannot be read might be the one sought; a match elsewhere decides without it.
        Disjunction found = new Disjunction();
        for (Value candidate : elements) {
            found.add(() -> equal(element, candidate, Node.ComparisonOperator.EQ, column));
        }
        return found.result();
    }

    private boolean equal(Value left, Value right, Node.ComparisonOperator operator, int column) {
        budget.charge(1, column);
        requireReadable(left, right, column);
        return switch (left) {
            case BoolValue(boolean l) when right instanceof BoolValue(boolean r) -> l == r;
            case IntValue(var l) when right instanceof IntValue(var r) -> l.equals(r);
            case TimestampValue(var l) when right instanceof TimestampValue(var r) -> l.equals(r);
            case StringValue(String l)
            when right instanceof StringValue(String r) -> {
                budget.chargeCharacters(Math.min(l.length(), r.length()), column);
                yield l.equals(r) || hexEqualIgnoringCase(l, r);
            }
            case ListValue(List<Value> l)
            when right instanceof ListValue(List<Value> r) -> listsEqual(l, r, operator, column);
            case StructValue(Map<String, Value> l)
            when right instanceof StructValue(Map<String, Value> r) -> structsEqual(l, r, operator, column);
            default -> throw mismatch(left, operator, right, column);
        };
    }

    /**
     * {@code 0x}-prefixed hex compares in any letter case: an EVM address or calldata means the same whether written
     * lower-case, upper-case or EIP-55 checksummed, and Turnkey's own examples write policies in every one of those
     * (while the server binds lower case). Without this, a DENY on a checksummed address would silently never match.
     */
    private static boolean hexEqualIgnoringCase(String left, String right) {
        return left.length() == right.length() && isHex(left) && isHex(right) && left.equalsIgnoreCase(right);
    }

    private static boolean isHex(String text) {
        if (text.length() < 2 || text.charAt(0) != '0' || (text.charAt(1) != 'x' && text.charAt(1) != 'X')) {
            return false;
        }
        for (int i = 2; i < text.length(); i++) {
            if (Character.digit(text.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }

    private boolean listsEqual(List<Value> left, List<Value> right, Node.ComparisonOperator operator, int column) {
        if (left.size() != right.size()) {
            return false;
        }
        Conjunction all = new Conjunction();
        for (int i = 0; i < left.size(); i++) {
            Value l = left.get(i);
            Value r = right.get(i);
            all.add(() -> equal(l, r, operator, column));
        }
        return all.result();
    }

    private boolean structsEqual(
            Map<String, Value> left, Map<String, Value> right, Node.ComparisonOperator operator, int column) {
        if (!left.keySet().equals(right.keySet())) {
            return false;
        }
        Conjunction all = new Conjunction();
        for (Map.Entry<String, Value> field : left.entrySet()) {
            all.add(() -> equal(field.getValue(), right.get(field.getKey()), operator, column));
        }
        return all.result();
    }

    private int order(Value left, Value right, Node.ComparisonOperator operator, int column) {
        requireReadable(left, right, column);
        return switch (left) {
            case IntValue(var l) when right instanceof IntValue(var r) -> l.compareTo(r);
            case TimestampValue(var l) when right instanceof TimestampValue(var r) -> l.compareTo(r);
            default -> throw mismatch(left, operator, right, column);
        };
    }

    private static void requireReadable(Value left, Value right, int column) {
        if (left instanceof UnreadableValue unreadable) {
            throw EvaluationFailure.unreadable("a compared value", unreadable, column);
        }
        if (right instanceof UnreadableValue unreadable) {
            throw EvaluationFailure.unreadable("a compared value", unreadable, column);
        }
    }

    private static EvaluationFailure mismatch(Value left, Node.ComparisonOperator operator, Value right, int column) {
        return new EvaluationFailure(
                EvaluationError.Kind.TYPE_MISMATCH,
                "cannot compare " + left.typeName() + " " + operator.symbol + " " + right.typeName(),
                column);
    }
}
