package dev.keyhaven.policy;

/**
 * Carries an {@link EvaluationError} from deep in the evaluator to {@link Evaluator#evaluate}, which turns it back
 * into a result; it never leaves the package. The first error ends the evaluation: the outcome is an error whatever
 * else the expression would have computed.
 */
final class EvaluationFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient EvaluationError error;

    EvaluationFailure(EvaluationError.Kind kind, String message, int column) {
        // No stack trace: failures are ordinary outcomes of evaluating policies, not bugs.
        super(message, null, false, false);
        this.error = new EvaluationError(kind, message, column);
    }

    EvaluationError error() {
        return error;
    }
}
