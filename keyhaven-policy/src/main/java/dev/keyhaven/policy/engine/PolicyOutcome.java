package dev.keyhaven.policy.engine;

import dev.keyhaven.policy.EvaluationError;
import java.util.Optional;

/**
 * One policy's outcome, with the evaluation error when the outcome is {@link Outcome#ERROR} (which expression
 * failed, and how), so that operators can see why a policy did not take part.
 */
public record PolicyOutcome(String policyId, Outcome outcome, Optional<String> error) {

    static PolicyOutcome of(String policyId, Outcome outcome) {
        return new PolicyOutcome(policyId, outcome, Optional.empty());
    }

    static PolicyOutcome failed(String policyId, String field, EvaluationError error) {
        return new PolicyOutcome(policyId, Outcome.ERROR, Optional.of(field + ": " + error));
    }
}
