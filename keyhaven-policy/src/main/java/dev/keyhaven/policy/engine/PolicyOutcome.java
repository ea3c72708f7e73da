package dev.keyhaven.policy.engine;

import dev.keyhaven.policy.EvaluationError;
import java.util.Optional;

/**
 * One policy's outcome, with the evaluation error when the outcome is {@link Outcome#ERROR} (which expression
 * failed, and how), so that operators can see why a policy did not take part, or why it denied: {@code failsClosed}
 * marks a DENY policy whose error means it could not be decided (see {@link PolicyEngine}), which denies.
 */
public record PolicyOutcome(String policyId, Outcome outcome, Optional<String> error, boolean failsClosed) {

    public PolicyOutcome {
        if (failsClosed && outcome != Outcome.ERROR) {
            throw new IllegalArgumentException("only an ERROR outcome fails closed");
        }
    }

    /** An outcome that does not fail closed. */
    public PolicyOutcome(String policyId, Outcome outcome, Optional<String> error) {
        this(policyId, outcome, error, false);
    }

    static PolicyOutcome of(String policyId, Outcome outcome) {
        return new PolicyOutcome(policyId, outcome, Optional.empty());
    }

    static PolicyOutcome failed(String policyId, String field, EvaluationError error, boolean failsClosed) {
        return new PolicyOutcome(policyId, Outcome.ERROR, Optional.of(field + ": " + error), failsClosed);
    }
}
