package dev.keyhaven.chains.solana;

import static dev.keyhaven.chains.solana.SolanaVectors.key;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.policy.Environment;
import dev.keyhaven.policy.EvaluationError;
import dev.keyhaven.policy.EvaluationResult;
import dev.keyhaven.policy.PolicyExpression;
import dev.keyhaven.policy.Value;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The Solana examples of Turnkey's policy documentation, evaluated on the values Keyhaven binds. */
class SolanaPolicyExamplesTest {
    private static final AnchorIdl SWAP_IDL = AnchorIdl.parse(SolanaVectors.resource("swap-idl-anchor-0.30.json"));
    private static final Function<String, Optional<AnchorIdl>> IDLS =
            program -> program.equals(SolanaVectors.JUPITER) ? Optional.of(SWAP_IDL) : Optional.empty();
    private static final String ROUTE_CONDITION = "solana.tx.instructions.any(i, i.program_key == '"
            + SolanaVectors.JUPITER + "' && i.parsed_instruction_data.instruction_name == 'route' "
            + "&& i.parsed_instruction_data.program_call_args['in_amount'] == 995500000)";

    private static EvaluationResult evaluate(
            String condition, String transaction, Function<String, Optional<AnchorIdl>> idls) {
        Value tx = SolanaVectors.parse(transaction).policyValue(idls);
        return PolicyExpression.parse(condition)
                .evaluate(Environment.of(Map.of("solana", Value.struct(Map.of("tx", tx)))));
    }

    private static EvaluationResult evaluate(String condition, String transaction) {
        return evaluate(condition, transaction, IDLS);
    }

    @Test
    void matchesASingleTransferToARecipient() {
        String condition = "solana.tx.transfers.count == 1 && solana.tx.transfers[0].to == '" + key(3) + "'";

        assertThat(evaluate(condition, "legacy_system_transfer")).isEqualTo(EvaluationResult.Decided.TRUE);
        assertThat(evaluate(condition, "legacy_two_signers")).isEqualTo(EvaluationResult.Decided.TRUE);
        assertThat(evaluate(condition, "v0_lookup")).isEqualTo(EvaluationResult.Decided.FALSE);
    }

    @Test
    void allowsOnlyTheSystemProgram() {
        String condition = "solana.tx.program_keys.all(p, p == '11111111111111111111111111111111')";

        assertThat(evaluate(condition, "legacy_system_transfer")).isEqualTo(EvaluationResult.Decided.TRUE);
        assertThat(evaluate(condition, "legacy_spl")).isEqualTo(EvaluationResult.Decided.FALSE);
    }

    @Test
    void seesAddressTableLookups() {
        String condition = "solana.tx.address_table_lookups.count() > 0";

        assertThat(evaluate(condition, "v0_lookup")).isEqualTo(EvaluationResult.Decided.TRUE);
        assertThat(evaluate(condition, "legacy_system_transfer")).isEqualTo(EvaluationResult.Decided.FALSE);
    }

    @Test
    void requiresEveryInstructionToTransferOneMint() {
        String condition = "solana.tx.instructions.count() == solana.tx.spl_transfers.count() "
                + "&& solana.tx.spl_transfers.all(t, t.token_mint == '" + key(6) + "')";

        assertThat(evaluate(condition, "legacy_token2022_fee")).isEqualTo(EvaluationResult.Decided.TRUE);
        assertThat(evaluate(condition, "legacy_spl_multisig")).isEqualTo(EvaluationResult.Decided.TRUE);
        assertThat(evaluate(condition, "legacy_spl")).isEqualTo(EvaluationResult.Decided.FALSE);
    }

    @Test
    void readsTheArgumentsOfAnAnchorInstruction() {
        assertThat(evaluate(ROUTE_CONDITION, "legacy_anchor_route")).isEqualTo(EvaluationResult.Decided.TRUE);
        assertThat(evaluate(ROUTE_CONDITION, "v0_lookup")).isEqualTo(EvaluationResult.Decided.TRUE);
    }

    @Test
    void doesNotApplyToAnInstructionWithoutTheArgument() {
        // The language evaluates every operand of && (no short-circuit): set_config has no in_amount.
        EvaluationResult result = evaluate(ROUTE_CONDITION, "legacy_anchor_set_config");

        assertThat(result).isInstanceOf(EvaluationError.class);
        assertThat(((EvaluationError) result).kind()).isEqualTo(EvaluationError.Kind.MISSING_FIELD);
    }

    @Test
    void cannotDecideOnTheArgumentsOfAProgramWithoutAnIdl() {
        EvaluationResult result = evaluate(ROUTE_CONDITION, "legacy_anchor_route", program -> Optional.empty());

        assertThat(result).isInstanceOf(EvaluationError.class);
        assertThat(((EvaluationError) result).kind()).isEqualTo(EvaluationError.Kind.UNREADABLE);
        assertThat(evaluate(ROUTE_CONDITION, "legacy_system_transfer", program -> Optional.empty()))
                .isEqualTo(EvaluationResult.Decided.FALSE);
    }
}
