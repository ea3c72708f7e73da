package dev.keyhaven.chains.tron;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.policy.Environment;
import dev.keyhaven.policy.EvaluationError;
import dev.keyhaven.policy.EvaluationResult;
import dev.keyhaven.policy.ListValue;
import dev.keyhaven.policy.PolicyExpression;
import dev.keyhaven.policy.StructValue;
import dev.keyhaven.policy.Value;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code tron.tx} of each TronWeb-built transaction, value by value. The expected values are those TronWeb was given
 * or decoded (see vectors.json), written out here so that any drift shows.
 */
class TronPolicyValueTest {
    private static final String OWNER = "TNy5gnELhfUppDRovLM9BRbwyss7RMzwsQ";
    private static final String RECEIVER = "THcu7NKgmqv5XTchYm5Y5mrZsXp3CoapyJ";
    private static final String COSIGNER = "TJ5UU4zKf7PyEowifWTWUa5SZaZoWChbZS";
    private static final String USDT_NILE = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf";

    @Test
    void theVectorsAddressesAreTronWebs() {
        assertThat(List.of(TronVectors.OWNER, TronVectors.RECEIVER, TronVectors.COSIGNER))
                .containsExactly(OWNER, RECEIVER, COSIGNER);
    }

    @Test
    void readsATransferWithItsMemoAsText() {
        assertThat(tx("transfer"))
                .isEqualTo(envelope(
                        "Rechnung 42 \u2014 merci \u2600",
                        0,
                        contract(
                                "TransferContract",
                                0,
                                Map.of(
                                        "to_address", Value.of(RECEIVER),
                                        "amount", Value.of(1_500_000)))));
    }

    @Test
    void readsATrc20TransferCallAsHexData() {
        assertThat(tx("trc20"))
                .isEqualTo(envelope(
                        "",
                        100_000_000,
                        contract(
                                "TriggerSmartContract",
                                0,
                                Map.of(
                                        "contract_address", Value.of(USDT_NILE),
                                        "call_value", Value.of(0),
                                        "data",
                                                Value.of(
                                                        "a9059cbb"
                                                                + "00000000000000000000000053e9c0901cd1e7196b2cab15630bf61fb4afe7ac"
                                                                + "00000000000000000000000000000000000000000000000000000000017d7840"),
                                        "call_token_value", Value.of(0),
                                        "token_id", Value.of(0)))));
    }

    @Test
    void readsADelegationWithItsLockAndPermissionId() {
        assertThat(tx("delegate"))
                .isEqualTo(envelope(
                        "",
                        0,
                        contract(
                                "DelegateResourceContract",
                                2,
                                Map.of(
                                        "resource", Value.of("ENERGY"),
                                        "balance", Value.of(2_000_000_000),
                                        "receiver_address", Value.of(RECEIVER),
                                        "lock", Value.of(true),
                                        "lock_period", Value.of(86_400)))));
    }

    @Test
    void readsAnUndelegationOfTheDefaultResource() {
        assertThat(tx("undelegate"))
                .isEqualTo(envelope(
                        "",
                        0,
                        contract(
                                "UnDelegateResourceContract",
                                0,
                                Map.of(
                                        "resource", Value.of("BANDWIDTH"),
                                        "balance", Value.of(1_000_000_000),
                                        "receiver_address", Value.of(RECEIVER)))));
    }

    @Test
    void readsAFreezeWhoseResourceIsTheProtobufDefault() {
        assertThat(tx("freeze"))
                .isEqualTo(envelope(
                        "",
                        0,
                        contract(
                                "FreezeBalanceV2Contract",
                                0,
                                Map.of(
                                        "frozen_balance", Value.of(5_000_000_000L),
                                        "resource", Value.of("BANDWIDTH")))));
    }

    @Test
    void readsAnUnfreeze() {
        assertThat(tx("unfreeze"))
                .isEqualTo(envelope(
                        "",
                        0,
                        contract(
                                "UnfreezeBalanceV2Contract",
                                0,
                                Map.of(
                                        "unfreeze_balance", Value.of(3_000_000),
                                        "resource", Value.of("ENERGY")))));
    }

    @Test
    void readsPermissionsAndLeavesTheAbsentWitnessOut() {
        Value owner = permission("Owner", "owner", 1, "", key(OWNER));
        Value payments = permission(
                "Active",
                "payments",
                2,
                "7fff1fc0033e0000000000000000000000000000000000000000000000000000",
                key(OWNER),
                key(COSIGNER));

        assertThat(tx("permissions"))
                .isEqualTo(envelope(
                        "",
                        0,
                        contract(
                                "AccountPermissionUpdateContract",
                                0,
                                Map.of("owner", owner, "actives", Value.list(payments)))));
    }

    @Test
    void bindsEveryFieldOfAnUnreadTypeAsUnreadableButItsSigner() {
        Value unreadable = Value.unreadable("Keyhaven does not read VoteWitnessContract");
        Map<String, Value> expected = new HashMap<>();
        TronPolicyType.CONTRACT.fields().keySet().forEach(name -> expected.put(name, unreadable));
        expected.put("type", Value.of("VoteWitnessContract"));
        expected.put("permission_id", Value.of(0));
        expected.put("owner_address", Value.of(OWNER));

        assertThat(firstContract("vote")).isEqualTo(Value.struct(expected));
    }

    @Test
    void findsTheSignerOfAnUnreadTypeThatPutsItSecond() {
        Map<String, Value> asset = ((StructValue) firstContract("asset")).fields();

        assertThat(asset.get("type")).isEqualTo(Value.of("TransferAssetContract"));
        assertThat(asset.get("owner_address")).isEqualTo(Value.of(OWNER));
        assertThat(asset.get("amount")).isEqualTo(Value.unreadable("Keyhaven does not read TransferAssetContract"));
    }

    @Test
    void turnkeysTrc20ExampleAllowsTheUsdtTransfer() {
        String policy = "tron.tx.contract[0].contract_address == 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf'"
                + " && tron.tx.contract[0].data[0..8] == 'a9059cbb'";

        assertThat(evaluate(policy, "trc20")).isEqualTo(EvaluationResult.Decided.TRUE);
    }

    @Test
    void turnkeysAmountExampleAllowsATransferUnderTenTrx() {
        assertThat(evaluate("tron.tx.contract[0].amount < 10000000", "transfer"))
                .isEqualTo(EvaluationResult.Decided.TRUE);
        assertThat(evaluate("tron.tx.contract[0].amount < 1000000", "transfer"))
                .isEqualTo(EvaluationResult.Decided.FALSE);
    }

    @Test
    void turnkeysTypeExampleTellsTransfersFromCalls() {
        String policy = "tron.tx.contract[0].type == 'TransferContract'";

        assertThat(evaluate(policy, "transfer")).isEqualTo(EvaluationResult.Decided.TRUE);
        assertThat(evaluate(policy, "trc20")).isEqualTo(EvaluationResult.Decided.FALSE);
    }

    @Test
    void anAmountPolicyDoesNotApplyToACallButCannotBeDecidedForAnUnreadType() {
        String policy = "tron.tx.contract[0].amount < 10000000";

        assertThat(evaluate(policy, "trc20"))
                .isInstanceOfSatisfying(
                        EvaluationError.class, e -> assertThat(e.kind()).isEqualTo(EvaluationError.Kind.MISSING_FIELD));
        assertThat(evaluate(policy, "vote"))
                .isInstanceOfSatisfying(
                        EvaluationError.class, e -> assertThat(e.kind()).isEqualTo(EvaluationError.Kind.UNREADABLE));
    }

    private static Value tx(String name) {
        return TronVectors.parsed(name).policyValue();
    }

    private static Value firstContract(String name) {
        StructValue tx = (StructValue) tx(name);
        return ((ListValue) tx.fields().get("contract")).elements().getFirst();
    }

    private static EvaluationResult evaluate(String policy, String vector) {
        Value tron = Value.struct(Map.of("tx", tx(vector)));
        return PolicyExpression.parse(policy).evaluate(Environment.of(Map.of("tron", tron)));
    }

    /** The block reference and times every vector shares (TronWeb's offline block header). */
    private static Value envelope(String memo, long feeLimit, Value contract) {
        return Value.struct(Map.of(
                "ref_block_bytes", Value.of("3f8a"),
                "ref_block_hash", Value.of("7d1c2b3a4f5e6d7c"),
                "expiration", Value.of(1_764_122_460_000L),
                "timestamp", Value.of(1_764_122_400_000L),
                "data", Value.of(memo),
                "fee_limit", Value.of(feeLimit),
                "contract", Value.list(contract)));
    }

    private static Value contract(String type, int permissionId, Map<String, Value> fields) {
        Map<String, Value> all = new HashMap<>(fields);
        all.put("type", Value.of(type));
        all.put("permission_id", Value.of(permissionId));
        all.put("owner_address", Value.of(OWNER));
        return Value.struct(all);
    }

    private static Value permission(String type, String name, long threshold, String operations, Value... keys) {
        return Value.struct(Map.of(
                "type", Value.of(type),
                "id", Value.of(0),
                "permission_name", Value.of(name),
                "threshold", Value.of(threshold),
                "parent_id", Value.of(0),
                "operations", Value.of(operations),
                "keys", Value.list(keys)));
    }

    private static Value key(String address) {
        return Value.struct(Map.of("address", Value.of(address), "weight", Value.of(1)));
    }
}
