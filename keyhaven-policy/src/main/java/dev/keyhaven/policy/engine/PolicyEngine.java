package dev.keyhaven.policy.engine;

import dev.keyhaven.policy.Environment;
import dev.keyhaven.policy.EvaluationError;
import dev.keyhaven.policy.EvaluationResult;
import dev.keyhaven.policy.PolicyExpression;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Evaluates an organization's policies for one activity, in Turnkey's order (turnkey-api.md §4, step 3): a policy
 * whose {@code time} is false is inactive and ignored; one whose {@code condition} is false does not apply; an
 * applicable policy whose {@code consensus} holds allows or denies; any such DENY wins over every ALLOW; an applicable
 * ALLOW whose consensus more approvals could meet asks for consensus. A policy with an expression that fails to
 * evaluate is {@link Outcome#ERROR} and takes no part in the decision, in either direction: a DENY policy about
 * raw-payload parameters must not deny every other kind of activity, whose parameters it cannot read.
 *
 * <p>Every policy is evaluated, even after a DENY is found, so that the recorded outcomes are complete.
 */
public final class PolicyEngine {

    private PolicyEngine() {
    }

    public static PolicyVerdict evaluate(List<CompiledPolicy> policies, Ballot ballot) {
        List<PolicyOutcome> outcomes = new ArrayList<>(policies.size());
        List<Environment> futures = null;
        for (CompiledPolicy policy : policies) {
            PolicyOutcome outcome = outcomeOf(policy, ballot);
            if (outcome.outcome() == Outcome.REQUIRES_CONSENSUS) {
                if (futures == null) {
                    futures = ballot.withMoreApprovals();
                }
                if (!satisfiable(policy.consensus(), futures)) {
                    outcome = PolicyOutcome.of(policy.id(), Outcome.DENY_IMPLICIT);
                }
            }
            outcomes.add(outcome);
        }
        return new PolicyVerdict(verdict(outcomes), outcomes);
    }

    /** The outcome from the current approvals; REQUIRES_CONSENSUS here means "not met yet" and is checked after. */
    private static PolicyOutcome outcomeOf(CompiledPolicy policy, Ballot ballot) {
        String id = policy.id();
        Optional<PolicyOutcome> inactive = unless(id, "time", policy.time(), Outcome.TIME_INACTIVE, ballot);
        if (inactive.isPresent()) {
            return inactive.get();
        }
        Optional<PolicyOutcome> notApplicable = unless(id, "condition", policy.condition(), Outcome.DENY_IMPLICIT,
                ballot);
        if (notApplicable.isPresent()) {
            return notApplicable.get();
        }
        return switch (policy.consensus().evaluate(ballot.current())) {
            case EvaluationError error -> PolicyOutcome.failed(id, "consensus", error);
            case EvaluationResult.Decided(boolean met) when met ->
                PolicyOutcome.of(id, policy.effect() == Effect.ALLOW ? Outcome.ALLOW : Outcome.DENY_EXPLICIT);
            case EvaluationResult.Decided notMet ->
                PolicyOutcome.of(id, policy.effect() == Effect.ALLOW ? Outcome.REQUIRES_CONSENSUS
                        : Outcome.DENY_IMPLICIT);
        };
    }

    /** Empty when {@code expression} holds; else {@code outcome}, or ERROR when it fails to evaluate. */
    private static Optional<PolicyOutcome> unless(String id, String field, PolicyExpression expression,
            Outcome outcome, Ballot ballot) {
        return switch (expression.evaluate(ballot.current())) {
            case EvaluationError error -> Optional.of(PolicyOutcome.failed(id, field, error));
            case EvaluationResult.Decided(boolean holds) ->
                holds ? Optional.empty() : Optional.of(PolicyOutcome.of(id, outcome));
        };
    }

    private static boolean satisfiable(PolicyExpression consensus, List<Environment> futures) {
        for (Environment future : futures) {
            if (consensus.evaluate(future) instanceof EvaluationResult.Decided(boolean met) && met) {
                return true;
            }
        }
        return false;
    }

    private static PolicyVerdict.Verdict verdict(List<PolicyOutcome> outcomes) {
        boolean allow = false;
        boolean consensus = false;
        for (PolicyOutcome outcome : outcomes) {
            switch (outcome.outcome()) {
                case DENY_EXPLICIT -> {
                    return PolicyVerdict.Verdict.DENY;
                }
                case ALLOW -> allow = true;
                case REQUIRES_CONSENSUS -> consensus = true;
                default -> {
                    // takes no part
                }
            }
        }
        if (allow) {
            return PolicyVerdict.Verdict.ALLOW;
        }
        return consensus ? PolicyVerdict.Verdict.NEEDS_CONSENSUS : PolicyVerdict.Verdict.NONE;
    }
}
