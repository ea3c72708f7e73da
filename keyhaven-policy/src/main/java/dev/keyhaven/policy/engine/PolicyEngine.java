package dev.keyhaven.policy.engine;

import dev.keyhaven.policy.Environment;
import dev.keyhaven.policy.EvaluationError;
import dev.keyhaven.policy.EvaluationResult;
import dev.keyhaven.policy.PolicyExpression;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Evaluates an organization's policies for one activity, in Turnkey's order (Turnkey's policy engine, step 3): a
 * policy whose {@code time} is false is inactive and ignored; one whose {@code condition} is false does not apply; an
 * applicable policy whose {@code consensus} holds allows or denies; any such DENY wins over every ALLOW; an applicable
 * ALLOW whose consensus more approvals could meet asks for consensus.
 *
 * <p>A policy with an expression that fails to evaluate is {@link Outcome#ERROR}. An ALLOW that errors allows
 * nothing. A DENY that errors depends on why:
 * <ul>
 * <li>it read something this activity does not have (a missing keyword, field or key, an index past the end:
 *     {@link dev.keyhaven.policy.EvaluationError.Kind#isAbsence()}): it does not apply, as in Turnkey. A DENY about
 *     raw-payload parameters must not deny every other kind of activity, whose parameters do not exist;</li>
 * <li>anything else (a value the server cannot read, a type mismatch, the evaluation limit, a bad argument), or any
 *     error of a policy the server does not {@linkplain CompiledPolicy#understood() understand}: the DENY could not be
 *     decided, and it denies ({@link PolicyOutcome#failsClosed()}). A custody service must not sign what a DENY
 *     might have forbidden because the DENY could not be read.</li>
 * </ul>
 *
 * <p>Every policy is evaluated, even after a DENY is found, so that the recorded outcomes are complete.
 */
public final class PolicyEngine {

    private PolicyEngine() {}

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
        Optional<PolicyOutcome> inactive = unless(policy, "time", policy.time(), Outcome.TIME_INACTIVE, ballot);
        if (inactive.isPresent()) {
            return unlessLaterFalse(inactive.get(), ballot, policy.condition(), policy.consensus());
        }
        Optional<PolicyOutcome> notApplicable =
                unless(policy, "condition", policy.condition(), Outcome.DENY_IMPLICIT, ballot);
        if (notApplicable.isPresent()) {
            return unlessLaterFalse(notApplicable.get(), ballot, policy.consensus());
        }
        return switch (policy.consensus().evaluate(ballot.current())) {
            case EvaluationError error -> failed(policy, "consensus", error);
            case EvaluationResult.Decided(boolean met)
            when met -> PolicyOutcome.of(id, policy.effect() == Effect.ALLOW ? Outcome.ALLOW : Outcome.DENY_EXPLICIT);
            case EvaluationResult.Decided notMet ->
                PolicyOutcome.of(
                        id, policy.effect() == Effect.ALLOW ? Outcome.REQUIRES_CONSENSUS : Outcome.DENY_IMPLICIT);
        };
    }

    /** Empty when {@code expression} holds; else {@code outcome}, or ERROR when it fails to evaluate. */
    private static Optional<PolicyOutcome> unless(
            CompiledPolicy policy, String field, PolicyExpression expression, Outcome outcome, Ballot ballot) {
        String id = policy.id();
        return switch (expression.evaluate(ballot.current())) {
            case EvaluationError error -> Optional.of(failed(policy, field, error));
            case EvaluationResult.Decided(boolean holds) ->
                holds ? Optional.empty() : Optional.of(PolicyOutcome.of(id, outcome));
        };
    }

    /**
     * A DENY denies only when its time, condition and consensus all hold. So one that could not decide one of them
     * still does not apply when a later one is plainly false (a DENY for one approver's activities, whose condition
     * reads what cannot be read, does not deny another approver's).
     */
    private static PolicyOutcome unlessLaterFalse(PolicyOutcome outcome, Ballot ballot, PolicyExpression... later) {
        if (!outcome.failsClosed()) {
            return outcome;
        }
        for (PolicyExpression expression : later) {
            if (expression.evaluate(ballot.current()) instanceof EvaluationResult.Decided(boolean holds) && !holds) {
                return new PolicyOutcome(outcome.policyId(), Outcome.ERROR, outcome.error(), false);
            }
        }
        return outcome;
    }

    private static PolicyOutcome failed(CompiledPolicy policy, String field, EvaluationError error) {
        boolean undecided = !error.kind().isAbsence() || !policy.understood();
        return PolicyOutcome.failed(policy.id(), field, error, policy.effect() == Effect.DENY && undecided);
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
            if (outcome.failsClosed()) {
                return PolicyVerdict.Verdict.DENY;
            }
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
