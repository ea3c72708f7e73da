package dev.keyhaven.policy.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.policy.Environment;
import dev.keyhaven.policy.PolicyExpression;
import dev.keyhaven.policy.Value;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PolicyEngineTest {
    private static final String SIGN = "activity.action == 'SIGN'";

    /** A signing activity approved by {@code approvers}; the organization also has users u1..u4. */
    private static Ballot signing(String... approvers) {
        return new Ballot() {
            @Override
            public Environment current() {
                return environment(List.of(approvers));
            }

            @Override
            public List<Environment> withMoreApprovals() {
                List<String> ids = new ArrayList<>(List.of(approvers));
                List<Environment> futures = new ArrayList<>();
                for (String other : List.of("u1", "u2", "u3", "u4")) {
                    if (!ids.contains(other)) {
                        ids.add(other);
                        futures.add(environment(List.copyOf(ids)));
                    }
                }
                return futures;
            }
        };
    }

    private static Environment environment(List<String> approverIds) {
        return Environment.of(Map.of(
                "activity", Value.struct(Map.of("action", Value.of("SIGN"), "params", Value.struct(Map.of()))),
                "approvers",
                        Value.list(approverIds.stream()
                                .<Value>map(id -> Value.struct(Map.of("id", Value.of(id))))
                                .toList()),
                "time", Value.struct(Map.of("now", Value.of(Instant.parse("2026-03-15T12:00:00Z"))))));
    }

    private static CompiledPolicy policy(String id, Effect effect, String condition, String consensus) {
        return new CompiledPolicy(
                id,
                effect,
                PolicyExpression.parse(condition),
                consensus.isEmpty() ? PolicyExpression.alwaysTrue() : PolicyExpression.parse(consensus),
                PolicyExpression.alwaysTrue());
    }

    private static List<Outcome> outcomes(PolicyVerdict verdict) {
        return verdict.outcomes().stream().map(PolicyOutcome::outcome).toList();
    }

    @Test
    void noPoliciesDecideNothing() {
        PolicyVerdict verdict = PolicyEngine.evaluate(List.of(), signing("u1"));
        assertThat(verdict.verdict()).isEqualTo(PolicyVerdict.Verdict.NONE);
        assertThat(verdict.outcomes()).isEmpty();
    }

    @Test
    void anApplicableSatisfiedAllowAllows() {
        PolicyVerdict verdict = PolicyEngine.evaluate(
                List.of(policy("p1", Effect.ALLOW, SIGN, "approvers.any(user, user.id == 'u1')")), signing("u1"));
        assertThat(verdict.verdict()).isEqualTo(PolicyVerdict.Verdict.ALLOW);
        assertThat(verdict.outcomes())
                .containsExactly(new PolicyOutcome("p1", Outcome.ALLOW, java.util.Optional.empty()));
    }

    @Test
    void aConditionThatDoesNotHoldIsAnImplicitDenyOfThatPolicy() {
        PolicyVerdict verdict = PolicyEngine.evaluate(
                List.of(policy("p1", Effect.ALLOW, "activity.action == 'DELETE'", "")), signing("u1"));
        assertThat(verdict.verdict()).isEqualTo(PolicyVerdict.Verdict.NONE);
        assertThat(outcomes(verdict)).containsExactly(Outcome.DENY_IMPLICIT);
    }

    @Test
    void denyWinsOverAnyAllowAndEveryPolicyIsStillEvaluated() {
        PolicyVerdict verdict = PolicyEngine.evaluate(
                List.of(
                        policy("allow", Effect.ALLOW, SIGN, ""),
                        policy("deny", Effect.DENY, SIGN, "approvers.any(user, user.id == 'u1')"),
                        policy("after", Effect.ALLOW, "activity.action == 'DELETE'", "")),
                signing("u1"));
        assertThat(verdict.verdict()).isEqualTo(PolicyVerdict.Verdict.DENY);
        assertThat(outcomes(verdict)).containsExactly(Outcome.ALLOW, Outcome.DENY_EXPLICIT, Outcome.DENY_IMPLICIT);
    }

    @Test
    void aDenyWhoseConsensusIsNotMetDoesNotApply() {
        PolicyVerdict verdict = PolicyEngine.evaluate(
                List.of(
                        policy("deny", Effect.DENY, SIGN, "approvers.any(user, user.id == 'u2')"),
                        policy("allow", Effect.ALLOW, SIGN, "")),
                signing("u1"));
        assertThat(verdict.verdict()).isEqualTo(PolicyVerdict.Verdict.ALLOW);
        assertThat(outcomes(verdict)).containsExactly(Outcome.DENY_IMPLICIT, Outcome.ALLOW);
    }

    @Test
    void anAllowThatMoreApprovalsCouldSatisfyNeedsConsensus() {
        CompiledPolicy twoOf = policy("two", Effect.ALLOW, SIGN, "approvers.count() >= 2");
        PolicyVerdict first = PolicyEngine.evaluate(List.of(twoOf), signing("u1"));
        assertThat(first.verdict()).isEqualTo(PolicyVerdict.Verdict.NEEDS_CONSENSUS);
        assertThat(outcomes(first)).containsExactly(Outcome.REQUIRES_CONSENSUS);

        PolicyVerdict second = PolicyEngine.evaluate(List.of(twoOf), signing("u1", "u2"));
        assertThat(second.verdict()).isEqualTo(PolicyVerdict.Verdict.ALLOW);
    }

    @Test
    void aConsensusThatNotEvenEveryoneCouldMeetIsAnImplicitDeny() {
        PolicyVerdict verdict = PolicyEngine.evaluate(
                List.of(policy("p", Effect.ALLOW, SIGN, "approvers.any(user, user.id == 'nobody')")), signing("u1"));
        assertThat(verdict.verdict()).isEqualTo(PolicyVerdict.Verdict.NONE);
        assertThat(outcomes(verdict)).containsExactly(Outcome.DENY_IMPLICIT);
    }

    @Test
    void aNonMonotoneConsensusIsFoundSatisfiableByGrowingTheApprovalsOneAtATime() {
        // Everyone together (5 approvers) is too many; one more approver is exactly right.
        PolicyVerdict verdict = PolicyEngine.evaluate(
                List.of(policy("p", Effect.ALLOW, SIGN, "approvers.count() == 2")), signing("u1"));
        assertThat(verdict.verdict()).isEqualTo(PolicyVerdict.Verdict.NEEDS_CONSENSUS);
    }

    @Test
    void anErrorTakesNoPartInEitherDirection() {
        PolicyVerdict verdict = PolicyEngine.evaluate(
                List.of(
                        policy("deny", Effect.DENY, "activity.params.hash_function == 'HASH_FUNCTION_NO_OP'", ""),
                        policy("allow", Effect.ALLOW, "wallet.id == 'w'", "")),
                signing("u1"));
        assertThat(verdict.verdict()).isEqualTo(PolicyVerdict.Verdict.NONE);
        assertThat(outcomes(verdict)).containsExactly(Outcome.ERROR, Outcome.ERROR);
        assertThat(verdict.outcomes().get(0).error())
                .hasValueSatisfying(message -> assertThat(message).startsWith("condition: MISSING_FIELD"));
        assertThat(verdict.outcomes().get(1).error())
                .hasValueSatisfying(message -> assertThat(message).contains("wallet"));
    }

    @Test
    void aConsensusErrorIsAnError() {
        PolicyVerdict verdict = PolicyEngine.evaluate(
                List.of(policy("p", Effect.ALLOW, SIGN, "credentials.count() > 0")), signing("u1"));
        assertThat(outcomes(verdict)).containsExactly(Outcome.ERROR);
        assertThat(verdict.outcomes().getFirst().error())
                .hasValueSatisfying(message -> assertThat(message).startsWith("consensus: "));
    }

    @Test
    void aPolicyOutsideItsTimeIsInactiveAndIgnored() {
        CompiledPolicy march = new CompiledPolicy(
                "march",
                Effect.DENY,
                PolicyExpression.parse(SIGN),
                PolicyExpression.alwaysTrue(),
                PolicyExpression.parse("time.now >= Timestamp('2026-03-01T00:00:00Z')"
                        + " && time.now < Timestamp('2026-04-01T00:00:00Z')"));
        CompiledPolicy april = new CompiledPolicy(
                "april",
                Effect.DENY,
                PolicyExpression.parse(SIGN),
                PolicyExpression.alwaysTrue(),
                PolicyExpression.parse("time.now >= Timestamp('2026-04-01T00:00:00Z')"));
        PolicyVerdict verdict = PolicyEngine.evaluate(List.of(april, march), signing("u1"));
        assertThat(outcomes(verdict)).containsExactly(Outcome.TIME_INACTIVE, Outcome.DENY_EXPLICIT);
        assertThat(verdict.verdict()).isEqualTo(PolicyVerdict.Verdict.DENY);
    }

    @Test
    void aTimeExpressionThatFailsIsAnError() {
        CompiledPolicy broken = new CompiledPolicy(
                "broken",
                Effect.ALLOW,
                PolicyExpression.parse(SIGN),
                PolicyExpression.alwaysTrue(),
                PolicyExpression.parse("time.later > 1"));
        PolicyVerdict verdict = PolicyEngine.evaluate(List.of(broken), signing("u1"));
        assertThat(outcomes(verdict)).containsExactly(Outcome.ERROR);
        assertThat(verdict.outcomes().getFirst().error())
                .hasValueSatisfying(m -> assertThat(m).startsWith("time: "));
    }

    @Test
    void futuresAreBuiltOnlyWhenAnAllowWaitsForConsensus() {
        int[] asked = {0};
        Ballot counting = new Ballot() {
            @Override
            public Environment current() {
                return environment(List.of("u1"));
            }

            @Override
            public List<Environment> withMoreApprovals() {
                asked[0]++;
                return List.of(environment(List.of("u1", "u2")));
            }
        };
        PolicyEngine.evaluate(
                List.of(policy("a", Effect.ALLOW, SIGN, ""), policy("b", Effect.DENY, SIGN, "approvers.count() > 1")),
                counting);
        assertThat(asked[0]).isZero();
        PolicyEngine.evaluate(
                List.of(
                        policy("c", Effect.ALLOW, SIGN, "approvers.count() > 1"),
                        policy("d", Effect.ALLOW, SIGN, "approvers.count() > 1")),
                counting);
        assertThat(asked[0]).isEqualTo(1);
    }
}
