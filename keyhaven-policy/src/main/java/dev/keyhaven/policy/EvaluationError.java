package dev.keyhaven.policy;

import java.util.Objects;

/**
 * Why an evaluation produced no boolean. {@code message} names the problem in terms of the expression (e.g.
 * {@code missing field 'id' on 'wallet'}); {@code column} is the 1-based column of the part of the expression that
 * failed.
 */
public record EvaluationError(Kind kind, String message, int column) implements EvaluationResult {

    public enum Kind {
        /** A keyword the environment does not have, or a field or map key a struct does not have. */
        MISSING_FIELD,
        /** An operator, function or access applied to a value of the wrong type, e.g. {@code 1 == 'a'}. */
        TYPE_MISMATCH,
        /** An index or slice bound outside the list or string. */
        INDEX_OUT_OF_RANGE,
        /** The whole expression evaluated to something other than a {@code bool}. */
        NOT_BOOLEAN,
        /** The evaluation took more than {@link Limits#MAX_EVALUATION_STEPS} steps. */
        LIMIT_EXCEEDED,
        /** A {@code Timestamp(…)} or {@code CronSpan(…)} argument that does not parse. */
        INVALID_ARGUMENT,
        /** The result depends on a value the server cannot read ({@link UnreadableValue}). */
        UNREADABLE;

        /**
         * Whether the error says that what the expression reads does not exist in this activity (a keyword, field,
         * map key, index or slice it does not have), rather than that the expression could not be decided. Turnkey
         * treats a policy about something an activity lacks as not applying to it.
         */
        public boolean isAbsence() {
            return this == MISSING_FIELD || this == INDEX_OUT_OF_RANGE;
        }
    }

    public EvaluationError {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(message, "message");
    }

    @Override
    public String toString() {
        return kind + ": " + message + " at column " + column;
    }
}
