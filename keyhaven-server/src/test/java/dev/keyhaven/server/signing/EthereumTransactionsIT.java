package dev.keyhaven.server.signing;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static dev.keyhaven.server.testing.EthereumTransactions.ONE_ETH;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.Requests.WalletAccountParams;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.EthereumTransactions;
import dev.keyhaven.server.testing.NonRootUser;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.Policies;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import tools.jackson.databind.JsonNode;

/**
 * Policies reading {@code eth.tx} on both stores, as teams migrate them from Turnkey: a DENY on the value beside a
 * broad ALLOW (the fail-open this closes), an ALLOW on the recipient, the older V1 activity type, and policies that
 * name what Keyhaven binds for no activity, refused when they are written.
 */
class EthereumTransactionsIT extends OnBothStores {
    private static final String RECIPIENT = "0x08d2b0a37f869ff76bacb5bab3278e26ab7067b7";
    private static final String OTHER = "0x" + "35".repeat(20);

    private String address;
    private NonRootUser alice;

    @BeforeParameterizedClassInvocation
    void createAccount() {
        String walletId = root.createWallet("eth", List.of(WalletAccountParams.ethereum(0)))
                .result()
                .path("walletId")
                .asString();
        address = root.query("list_wallet_accounts", Map.of("walletId", walletId))
                .path("accounts")
                .get(0)
                .path("address")
                .asString();
        alice = NonRootUser.create(root, "alice");
    }

    @AfterEach
    void deletePolicies() {
        Policies.deleteAll(root);
    }

    private Activity send(String to, BigInteger value) {
        return alice.client()
                .signTransaction(address, "TRANSACTION_TYPE_ETHEREUM", EthereumTransactions.transfer(to, value));
    }

    @Test
    void aDenyOnTheValueBesideABroadAllowDeniesTwoEther() {
        String allow = Policies.allow(root, "activity.kind == 'SIGN_TRANSACTION'");
        String deny = Policies.deny(root, "eth.tx.value >= 1000000000000000000");
        Activity twoEther = send(RECIPIENT, ONE_ETH.multiply(BigInteger.TWO));
        assertThat(twoEther.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        assertThat(twoEther.failure())
                .hasValueSatisfying(f -> assertThat(f.message()).contains("request denied by policy " + deny));
        JsonNode outcomes = root.getPolicyEvaluations(twoEther.id()).get(0).path("policyEvaluations");
        assertThat(outcomes.get(0).path("policyId").asString()).isEqualTo(allow);
        assertThat(outcomes.get(0).path("outcome").asString()).isEqualTo("OUTCOME_ALLOW");
        assertThat(outcomes.get(1).path("policyId").asString()).isEqualTo(deny);
        assertThat(outcomes.get(1).path("outcome").asString()).isEqualTo("OUTCOME_DENY_EXPLICIT");
        assertThat(outcomes.get(2).path("outcome").asString()).isEqualTo("OUTCOME_DENY_EXPLICIT");

        Activity half = send(RECIPIENT, ONE_ETH.divide(BigInteger.TWO));
        assertThat(half.isCompleted()).isTrue();
        assertThat(half.result().path("signedTransaction").asString()).startsWith("02");
    }

    @Test
    void anAllowOnTheRecipientAllowsThatRecipientOnly() {
        Policies.allow(root, "eth.tx.to == '" + RECIPIENT + "' && eth.tx.chain_id == 1");
        assertThat(send(RECIPIENT, BigInteger.ONE).isCompleted()).isTrue();
        assertThat(send(OTHER, BigInteger.ONE).status()).isEqualTo("ACTIVITY_STATUS_FAILED");
    }

    @Test
    void theDenyAppliesToTheOlderActivityTypeToo() {
        Policies.allow(root, "activity.kind == 'SIGN_TRANSACTION'");
        Policies.deny(root, "eth.tx.value >= 1000000000000000000");
        Activity v1 = alice.client()
                .submit(
                        "sign_transaction",
                        "ACTIVITY_TYPE_SIGN_TRANSACTION",
                        Map.of(
                                "privateKeyId",
                                address,
                                "type",
                                "TRANSACTION_TYPE_ETHEREUM",
                                "unsignedTransaction",
                                EthereumTransactions.transfer(RECIPIENT, ONE_ETH.multiply(BigInteger.TEN))),
                        "signTransactionResult");
        assertThat(v1.type()).isEqualTo("ACTIVITY_TYPE_SIGN_TRANSACTION");
        assertThat(v1.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        Activity small = alice.client()
                .submit(
                        "sign_transaction",
                        "ACTIVITY_TYPE_SIGN_TRANSACTION",
                        Map.of(
                                "privateKeyId",
                                address,
                                "type",
                                "TRANSACTION_TYPE_ETHEREUM",
                                "unsignedTransaction",
                                EthereumTransactions.transfer(RECIPIENT, BigInteger.ONE)),
                        "signTransactionResult");
        assertThat(small.isCompleted()).isTrue();
        assertThat(small.raw().path("intent").has("signTransactionIntent")).isTrue();
    }

    @Test
    void policiesNamingWhatNoActivityBindsAreRefusedWhenWritten() {
        for (Map.Entry<String, String> refused : Map.of(
                        "eth.tx.valu >= 1", "'eth.tx' has no field 'valu' at column 8",
                        "tempo.tx.gas_limit > 100000", "unknown keyword 'tempo' at column 1",
                        "wallets.any(w, w.id == 'x')", "unknown keyword 'wallets' at column 1",
                        "activity.params.endpoint_id == 'e'",
                                "'activity.params' has no field 'endpoint_id' at column 17",
                        "eth.tx.value >= '1'", "'>=' orders ints and timestamps, not a string at column 14")
                .entrySet()) {
            KeyhavenApiException e = apiError(
                    ErrorCode.BAD_REQUEST,
                    "parameters.condition",
                    () -> root.createPolicy("bad", "EFFECT_DENY", refused.getKey(), "", "", null));
            assertThat(e.serverMessage())
                    .as(refused.getKey())
                    .isEqualTo("invalid policy condition: " + refused.getValue() + " (parameters.condition)");
        }
        KeyhavenApiException consensus = apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.consensus",
                () -> root.createPolicy("bad", "EFFECT_ALLOW", "", "approvers.any(u, u.name == 'x')", "", null));
        assertThat(consensus.serverMessage())
                .isEqualTo("invalid policy consensus: 'u' has no field 'name' at column 20 (parameters.consensus)");
        KeyhavenApiException batch = apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.policies[1].condition",
                () -> root.submit(
                        "create_policies",
                        "ACTIVITY_TYPE_CREATE_POLICIES",
                        Map.of(
                                "policies",
                                List.of(
                                        Map.of(
                                                "policyName",
                                                "fine",
                                                "effect",
                                                "EFFECT_DENY",
                                                "condition",
                                                "eth.tx.value > 1",
                                                "notes",
                                                ""),
                                        Map.of(
                                                "policyName",
                                                "typo",
                                                "effect",
                                                "EFFECT_DENY",
                                                "condition",
                                                "eth.tx.vlaue > 1",
                                                "notes",
                                                ""))),
                        "createPoliciesResult"));
        assertThat(batch.serverMessage())
                .isEqualTo("invalid policy condition: 'eth.tx' has no field 'vlaue' at "
                        + "column 8 (parameters.policies[1].condition)");
        assertThat(root.listPolicies()).isEmpty();

        String id = Policies.deny(root, "eth.tx.value > 1");
        KeyhavenApiException update = apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.policyCondition",
                () -> root.submit(
                        "update_policy",
                        "ACTIVITY_TYPE_UPDATE_POLICY_V2",
                        Map.of("policyId", id, "policyCondition", "eth.tx.to == 'x' && solana.tx.fee > 1"),
                        "updatePolicyResultV2"));
        assertThat(update.serverMessage())
                .isEqualTo("invalid policy condition: 'solana.tx' has no field 'fee' at "
                        + "column 31 (parameters.policyCondition)");
        assertThat(root.getPolicy(id).path("condition").asString()).isEqualTo("eth.tx.value > 1");
    }
}
