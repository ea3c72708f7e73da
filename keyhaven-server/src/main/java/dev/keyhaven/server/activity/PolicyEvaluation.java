package dev.keyhaven.server.activity;

import dev.keyhaven.policy.engine.Outcome;
import dev.keyhaven.policy.engine.PolicyOutcome;
import java.util.List;

/**
 * The policy evaluation one vote caused (get_policy_evaluations): each policy's outcome, in the organization's order,
 * and the overall outcome, which also covers decisions no policy made (the root quorum's bypass is
 * {@code ALLOW} with no policy outcomes; the implicit rules are {@code ALLOW} or {@code DENY_IMPLICIT}; a rejection
 * is {@code REJECTED}).
 */
public record PolicyEvaluation(String id, List<PolicyOutcome> policies, Outcome overall) {

    public PolicyEvaluation {
        policies = List.copyOf(policies);
    }
}
