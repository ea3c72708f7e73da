package dev.keyhaven.policy;

import java.util.function.BooleanSupplier;

/**
 * {@code a || b || …} in Kleene's three-valued logic: true if any operand is true, else unknown (the first
 * {@code UNREADABLE} error is thrown) if any operand depends on an {@link UnreadableValue}, else false. The dual of
 * {@link Conjunction}; every operand is evaluated, and any other error is thrown at once.
 */
final class Disjunction {
    private boolean result;
    private EvaluationFailure unknown;

    void add(BooleanSupplier operand) {
        try {
            result |= operand.getAsBoolean();
        } catch (EvaluationFailure failure) {
            if (!failure.isUnreadable()) {
                throw failure;
            }
            unknown = unknown == null ? failure : unknown;
        }
    }

    boolean result() {
        if (!result && unknown != null) {
            throw unknown;
        }
        return result;
    }
}
