package dev.keyhaven.policy;

/**
 * What evaluating a policy expression gives: a boolean, or an error that makes the policy's outcome
 * {@code OUTCOME_ERROR}. Evaluation never throws for any expression and any environment; every failure is an
 * {@link EvaluationError}.
 */
public sealed interface EvaluationResult permits EvaluationResult.Decided, EvaluationError {

    /** The expression evaluated to a {@code bool}. */
    record Decided(boolean value) implements EvaluationResult {
        public static final Decided TRUE = new Decided(true);
        public static final Decided FALSE = new Decided(false);

        public static Decided of(boolean value) {
            return value ? TRUE : FALSE;
        }
    }
}
