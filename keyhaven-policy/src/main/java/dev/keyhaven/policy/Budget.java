package dev.keyhaven.policy;

/**
 * Counts the work of one evaluation against {@link Limits#MAX_EVALUATION_STEPS}. Besides visited nodes, built-ins
 * pay for the elements they examine and for long strings, so a cost that grows with the size of the environment's
 * values (a 100 kB calldata compared in a loop) is bounded too, not only the size of the expression.
 */
final class Budget {
    /** Characters of a string that one step pays for. */
    private static final int CHARACTERS_PER_STEP = 64;

    private int steps;

    /** @param column where the work happens, reported if it is the step over the limit */
    void charge(int count, int column) {
        steps += count;
        if (steps > Limits.MAX_EVALUATION_STEPS || steps < 0) {
            throw new EvaluationFailure(
                    EvaluationError.Kind.LIMIT_EXCEEDED,
                    "evaluation exceeded " + Limits.MAX_EVALUATION_STEPS + " steps",
                    column);
        }
    }

    void chargeCharacters(int count, int column) {
        charge(count / CHARACTERS_PER_STEP, column);
    }
}
