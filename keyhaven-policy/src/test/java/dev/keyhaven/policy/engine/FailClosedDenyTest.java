package dev.keyhaven.policy.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.policy.Environment;
import dev.keyhaven.policy.PolicyExpression;
import dev.keyhaven.policy.Value;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A DENY that cannot be decided denies; a DENY about something the activity does not have does not apply. Each case is
 * a broad ALLOW beside one DENY, the shape of Turnkey policy sets migrated as they are.
 */
class FailClosedDenyTest {
    private static final CompiledPolicy ALLOW_ALL = policy("allow", Effect.ALLOW, "true", true);

    /** A two-ETH transfer to a contract whose ABI was never uploaded, approved by u1. */
    private static final Ballot TRANSFER = ballot(Environment.of(Map.of(
            "activity",
                    Value.struct(Map.of(
                            "type",
                            Value.of("ACTIVITY_TYPE_SIGN_TRANSACTION_V2"),
                            "params",
                            Value.struct(Map.of("type", Value.of("TRANSACTION_TYPE_ETHEREUM"))))),
            "approvers", Value.list(Value.struct(Map.of("id", Value.of("u1")))),
            "eth",
                    Value.struct(Map.of(
                            "tx",
                            Value.struct(Map.of(
                                    "to", Value.of("0xc0ffee"),
                                    "value", Value.of(new java.math.BigInteger("2000000000000000000")),
                                    "function_name",
                                            Value.unreadable("no smart contract interface for 0xc0ffee"))))))));

    private static Ballot ballot(Environment environment) {
        return new Ballot() {
            @Override
            public Environment current() {
                return environment;
            }

            @Override
            public List<Environment> withMoreApprovals() {
                return List.of();
            }
        };
    }

    private static CompiledPolicy policy(String id, Effect effect, String condition, boolean understood) {
        return new CompiledPolicy(
                id,
                effect,
                PolicyExpression.parse(condition),
                PolicyExpression.alwaysTrue(),
                PolicyExpression.alwaysTrue(),
                understood);
    }

    private static CompiledPolicy deny(String condition, String consensus) {
        return new CompiledPolicy(
                "deny",
                Effect.DENY,
                PolicyExpression.parse(condition),
                PolicyExpression.parse(consensus),
                PolicyExpression.alwaysTrue());
    }

    private static PolicyVerdict evaluate(CompiledPolicy deny) {
        return PolicyEngine.evaluate(List.of(ALLOW_ALL, deny), TRANSFER);
    }

    @Test
    void aDenyThatReadsTheTransactionDenies() {
        PolicyVerdict verdict = evaluate(policy("deny", Effect.DENY, "eth.tx.value >= 1000000000000000000", true));
        assertThat(verdict.verdict()).isEqualTo(PolicyVerdict.Verdict.DENY);
        assertThat(verdict.outcomes().get(1).outcome()).isEqualTo(Outcome.DENY_EXPLICIT);
    }

    @Test
    void aDenyThatReadsWhatCannotBeReadFailsClosed() {
        PolicyVerdict verdict = evaluate(policy("deny", Effect.DENY, "eth.tx.function_name == 'approve'", true));
        assertThat(verdict.verdict()).isEqualTo(PolicyVerdict.Verdict.DENY);
        PolicyOutcome outcome = verdict.outcomes().get(1);
        assertThat(outcome.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(outcome.failsClosed()).isTrue();
        assertThat(outcome.error())
                .hasValue("condition: UNREADABLE: cannot read 'eth.tx.function_name': no smart "
                        + "contract interface for 0xc0ffee at column 22");
    }

    @Test
    void aDenyRuledOutByWhatCanBeReadDoesNotApply() {
        PolicyVerdict verdict = evaluate(
                policy("deny", Effect.DENY, "eth.tx.to == '0xdead' && eth.tx.function_name == 'approve'", true));
        assertThat(verdict.verdict()).isEqualTo(PolicyVerdict.Verdict.ALLOW);
        assertThat(verdict.outcomes().get(1).outcome()).isEqualTo(Outcome.DENY_IMPLICIT);
    }

    @Test
    void aDenyWhoseConsensusIsPlainlyFalseDoesNotApplyEvenIfItsConditionCannotBeRead() {
        PolicyVerdict verdict = evaluate(deny("eth.tx.function_name == 'approve'", "approvers.any(u, u.id == 'u9')"));
        assertThat(verdict.verdict()).isEqualTo(PolicyVerdict.Verdict.ALLOW);
        assertThat(verdict.outcomes().get(1).outcome()).isEqualTo(Outcome.ERROR);
        assertThat(verdict.outcomes().get(1).failsClosed()).isFalse();
    }

    @Test
    void aDenyAboutWhatThisActivityDoesNotHaveDoesNotApply() {
        for (String condition : List.of(
                "activity.params.hash_function == 'HASH_FUNCTION_NO_OP'",
                "solana.tx.transfers.count() > 0",
                "private_key.id == 'k'",
                "eth.tx.data[0..10] == '0xa9059cbb'")) {
            PolicyVerdict verdict = evaluate(policy("deny", Effect.DENY, condition, true));
            assertThat(verdict.verdict()).as(condition).isEqualTo(PolicyVerdict.Verdict.ALLOW);
            assertThat(verdict.outcomes().get(1).outcome()).as(condition).isEqualTo(Outcome.ERROR);
            assertThat(verdict.outcomes().get(1).failsClosed()).as(condition).isFalse();
        }
    }

    @Test
    void aDenyThatCannotBeDecidedForAnyOtherReasonDenies() {
        for (String condition : List.of(
                "eth.tx.value >= '1'",
                "eth.tx.to",
                "eth.tx.value.all(v, v > 1)",
                "Timestamp('2030-13-01T00:00:00Z') == Timestamp('2030-01-01T00:00:00Z')")) {
            PolicyVerdict verdict = evaluate(policy("deny", Effect.DENY, condition, true));
            assertThat(verdict.verdict()).as(condition).isEqualTo(PolicyVerdict.Verdict.DENY);
            assertThat(verdict.outcomes().get(1).failsClosed()).as(condition).isTrue();
        }
    }

    @Test
    void aDenyTheServerDoesNotUnderstandFailsClosedEvenOnAMissingField() {
        PolicyVerdict verdict = evaluate(policy("deny", Effect.DENY, "eth.tx.valu >= 1", false));
        assertThat(verdict.verdict()).isEqualTo(PolicyVerdict.Verdict.DENY);
        assertThat(verdict.outcomes().get(1).failsClosed()).isTrue();
    }

    @Test
    void anAllowThatCannotBeDecidedAllowsNothing() {
        PolicyVerdict verdict = PolicyEngine.evaluate(
                List.of(policy("allow", Effect.ALLOW, "eth.tx.function_name == 'transfer'", true)), TRANSFER);
        assertThat(verdict.verdict()).isEqualTo(PolicyVerdict.Verdict.NONE);
        assertThat(verdict.outcomes().getFirst().outcome()).isEqualTo(Outcome.ERROR);
        assertThat(verdict.outcomes().getFirst().failsClosed()).isFalse();
    }
}
