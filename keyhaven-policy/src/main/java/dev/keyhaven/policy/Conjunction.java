package dev.keyhaven.policy;

import java.util.function.BooleanSupplier;

/**
 * {@code a && b && …} in Kleene's three-valued logic, where the third value is an operand that depends on an
 * {@link UnreadableValue}: false if any operand is false, else unknown (the first such operand's
 * {@code UNREADABLE} error is thrown) if any is, else true. Every operand is evaluated, in order; any other error is
 * thrown at once, as the evaluator does everywhere (no short-circuit). {@link Disjunction} is the dual.
 */
final class Conjunction {
    private boolean result = true;
    private EvaluationFailure unknown;

    void add(BooleanSupplier operand) {
        try {
            result &= operand.getAsBoolean();
        } catch (EvaluationFailure failure) {
            if (!failure.isUnreadable()) {
                throw failure;
            }
            unknown = unknown == null ? failure : unknown;
        }
    }

    boolean result() {
        if (result && unknown != null) {
            throw unknown;
        }
        return result;
    }
}
