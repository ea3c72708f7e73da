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

    /** Reading {@code value}, which {@code what} describes, cannot be done: see {@link UnreadableValue}. */
    static EvaluationFailure unreadable(String what, UnreadableValue value, int column) {
        return new EvaluationFailure(
                EvaluationError.Kind.UNREADABLE, "cannot read " + what + ": " + value.reason(), column);
    }

    boolean isUnreadable() {
        return error.kind() == EvaluationError.Kind.UNREADABLE;
    }

    EvaluationError error() {
        return error;
    }
}
