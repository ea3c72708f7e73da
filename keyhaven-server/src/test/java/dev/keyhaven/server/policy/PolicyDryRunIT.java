package dev.keyhaven.server.policy;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.ApiKeyParams;
import dev.keyhaven.client.Requests.RootUserParams;
import dev.keyhaven.client.Requests.UserParams;
import dev.keyhaven.client.Requests.WalletAccountParams;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.TestServer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import tools.jackson.databind.JsonNode;

/**
 * Keyhaven's two policy queries over HTTP, on both stores: {@code check_policy} answers the problems
 * {@code create_policy} would refuse, each at its column; {@code dry_run_policies} decides a past activity again on a
 * changed policy set, reaching the recorded decision when nothing changes, and writes nothing. Both are stamped and
 * authorized as any read, and refuse malformed requests with a 400 naming the field.
 */
class PolicyDryRunIT extends OnBothStores {
    private static final String TEXT = "PAYLOAD_ENCODING_TEXT_UTF8";
    private static final String KECCAK = "HASH_FUNCTION_KECCAK256";

    private KeyhavenClient alice;
    private KeyhavenClient bob;
    private String aliceId;
    private String bobId;
    private String walletId;
    private String address;

    @BeforeParameterizedClassInvocation
    void createUsersAndAWallet() {
        List<ApiKeyStamper> keys = new ArrayList<>();
        List<UserParams> users = new ArrayList<>();
        for (String name : List.of("alice", "bob")) {
            ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
            keys.add(key);
            users.add(UserParams.withApiKeys(name, List.of(ApiKeyParams.of(name + "'s key", key))));
        }
        JsonNode ids = root.createUsers(users).result().path("userIds");
        aliceId = ids.get(0).asString();
        bobId = ids.get(1).asString();
        alice = root.withStamper(keys.get(0));
        bob = root.withStamper(keys.get(1));
        walletId = root.createWallet("treasury", List.of(WalletAccountParams.ethereum(0)))
                .result()
                .path("walletId")
                .asString();
        address = root.query("list_wallet_accounts", Map.of("walletId", walletId))
                .path("accounts")
                .get(0)
                .path("address")
                .asString();
    }

    @AfterEach
    void deletePolicies() {
        List<String> ids = new ArrayList<>();
        root.listPolicies().forEach(p -> ids.add(p.path("policyId").asString()));
        if (!ids.isEmpty()) {
            assertThat(root.submit(
                                    "delete_policies",
                                    "ACTIVITY_TYPE_DELETE_POLICIES",
                                    Map.of("policyIds", ids),
                                    "deletePoliciesResult")
                            .status())
                    .isEqualTo("ACTIVITY_STATUS_COMPLETED");
        }
    }

    // ---- check_policy ------------------------------------------------------------------------------------------

    @Test
    void checkPolicyAnswersEveryProblemAtItsColumn() {
        assertThat(root.query(
                                "check_policy",
                                Map.of(
                                        "effect", "EFFECT_ALLOW",
                                        "condition", "activity.action == 'SIGN' && wallet.id == 'w'",
                                        "consensus", "approvers.any(u, u.id == 'x')"))
                        .toString())
                .isEqualTo("{\"problems\":[]}");
        assertThat(root.query("check_policy", Map.of()).toString()).isEqualTo("{\"problems\":[]}");

        String unclosed = "activity.action == 'SIGN' && (wallet.id == 'w'";
        JsonNode answer = root.query(
                "check_policy",
                Map.of(
                        "condition", unclosed,
                        "consensus", "approvers.any(u, u.id == 'x') && wallet.labl == 'x'",
                        "time", "time.now >"));
        assertThat(answer.toString())
                .isEqualTo("{\"problems\":["
                        + "{\"field\":\"condition\",\"column\":47,\"message\":\"expected ')'\"},"
                        + "{\"field\":\"consensus\",\"column\":41,\"message\":\"'wallet' has no field 'labl'\"},"
                        + "{\"field\":\"time\",\"column\":11,\"message\":\"expected an expression\"}]}");
        assertThat(unclosed).as("the column after its end").hasSize(46);

        // The very check create_policy runs: the same problem, at the same column.
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.condition",
                                () -> root.createPolicy("bad", "EFFECT_ALLOW", unclosed, null, "", null))
                        .serverMessage())
                .isEqualTo("invalid policy condition: expected ')' at column 47 (parameters.condition)");

        // A request that is not one is refused, naming the field.
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "condition",
                                () -> root.query("check_policy", Map.of("condition", 5)))
                        .serverMessage())
                .isEqualTo("bad request body: condition must be a string");
        apiError(ErrorCode.BAD_REQUEST, "effect", () -> root.query("check_policy", Map.of("effect", "EFFECT_MAYBE")));
        assertThat(root.listPolicies()).as("nothing was written").isEmpty();
    }

    // ---- dry_run_policies --------------------------------------------------------------------------------------

    @Test
    void withNoChangeTheDryRunReachesTheRecordedDecision() {
        String policyId = allow("two of us", signWithTheTreasury(), bothApprove());
        Activity waiting = alice.signRawPayload(address, "needs two", TEXT, KECCAK);
        assertThat(waiting.status()).isEqualTo("ACTIVITY_STATUS_CONSENSUS_NEEDED");

        JsonNode dryRun = dryRun(waiting.id(), Map.of());
        JsonNode recorded = root.getPolicyEvaluations(waiting.id()).get(0);
        assertThat(dryRun.path("evaluatedAt")).isEqualTo(recorded.path("createdAt"));
        assertThat(without(dryRun, "evaluatedAt"))
                .isEqualTo("{\"activityId\":\"" + waiting.id() + "\","
                        + "\"decision\":{\"outcome\":\"OUTCOME_REQUIRES_CONSENSUS\","
                        + "\"status\":\"ACTIVITY_STATUS_CONSENSUS_NEEDED\","
                        + "\"reason\":\"policy " + policyId + " needs more approvals\"},"
                        + "\"policyEvaluations\":[{\"policyId\":\"" + policyId + "\",\"policyName\":\"two of us\","
                        + "\"effect\":\"EFFECT_ALLOW\",\"draft\":false,\"outcome\":\"OUTCOME_REQUIRES_CONSENSUS\"}],"
                        + "\"recorded\":{\"status\":\"ACTIVITY_STATUS_CONSENSUS_NEEDED\","
                        + "\"outcome\":\"OUTCOME_REQUIRES_CONSENSUS\"}}");
        assertThat(recorded.path("policyEvaluations").toString())
                .isEqualTo("[{\"policyId\":\"" + policyId + "\",\"outcome\":\"OUTCOME_REQUIRES_CONSENSUS\"},"
                        + "{\"outcome\":\"OUTCOME_REQUIRES_CONSENSUS\"}]");

        // Bob approves: the recorded decision is ALLOW, and so is the dry run's, with both approvals.
        assertThat(bob.approveActivity(waiting.fingerprint(), "signRawPayloadResult")
                        .status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");
        JsonNode afterApproval = dryRun(waiting.id(), Map.of());
        assertThat(afterApproval.path("decision").toString())
                .isEqualTo("{\"outcome\":\"OUTCOME_ALLOW\",\"status\":\"ACTIVITY_STATUS_COMPLETED\","
                        + "\"reason\":\"allowed by policy " + policyId + "\"}");
        assertThat(afterApproval.path("recorded").toString())
                .isEqualTo("{\"status\":\"ACTIVITY_STATUS_COMPLETED\",\"outcome\":\"OUTCOME_ALLOW\"}");
        assertThat(afterApproval.path("evaluatedAt"))
                .isEqualTo(root.getPolicyEvaluations(waiting.id()).get(1).path("createdAt"));

        // An activity no policy allowed: recorded and replayed as an implicit denial.
        assertThat(root.deletePolicy(policyId).status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        Activity implicit = bob.signRawPayload(address, "no policy", TEXT, KECCAK);
        assertThat(implicit.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        JsonNode none = dryRun(implicit.id(), Map.of());
        assertThat(none.path("decision").path("outcome").asString()).isEqualTo("OUTCOME_DENY_IMPLICIT");
        assertThat(none.path("decision").path("status").asString()).isEqualTo("ACTIVITY_STATUS_FAILED");
        assertThat(none.path("policyEvaluations").toString()).isEqualTo("[]");
        assertThat(none.path("recorded").toString())
                .isEqualTo("{\"status\":\"ACTIVITY_STATUS_FAILED\",\"outcome\":\"OUTCOME_DENY_IMPLICIT\"}");
    }

    @Test
    void aDraftIsAddedReplacesAPolicyOrLeavesOneOutAndNothingIsSaved() {
        String policyId = allow("two of us", signWithTheTreasury(), bothApprove());
        Activity waiting = alice.signRawPayload(address, "needs two", TEXT, KECCAK);
        assertThat(waiting.status()).isEqualTo("ACTIVITY_STATUS_CONSENSUS_NEEDED");
        String policiesBefore = root.listPolicies().toString();
        String activityBefore = root.getActivity(waiting.id()).toString();

        // Replaced: alice's approval alone would have signed.
        JsonNode replaced = dryRun(
                waiting.id(),
                Map.of(
                        "draftPolicy",
                        draft(policyId, "alice alone", "EFFECT_ALLOW", signWithTheTreasury(), approvedBy(aliceId))));
        assertThat(replaced.path("decision").toString())
                .isEqualTo("{\"outcome\":\"OUTCOME_ALLOW\",\"status\":\"ACTIVITY_STATUS_COMPLETED\","
                        + "\"reason\":\"allowed by policy " + policyId + "\"}");
        assertThat(replaced.path("policyEvaluations").toString())
                .isEqualTo("[{\"policyId\":\"" + policyId + "\",\"policyName\":\"alice alone\","
                        + "\"effect\":\"EFFECT_ALLOW\",\"draft\":true,\"outcome\":\"OUTCOME_ALLOW\"}]");

        // Added: a DENY on signing wins over the waiting ALLOW.
        JsonNode added = dryRun(
                waiting.id(),
                Map.of("draftPolicy", draft(null, "no signing", "EFFECT_DENY", "activity.action == 'SIGN'", "")));
        assertThat(added.path("decision").toString())
                .isEqualTo("{\"outcome\":\"OUTCOME_DENY_EXPLICIT\",\"status\":\"ACTIVITY_STATUS_FAILED\","
                        + "\"reason\":\"request denied by policy draft\"}");
        assertThat(added.path("policyEvaluations").toString())
                .isEqualTo("[{\"policyId\":\"" + policyId + "\",\"policyName\":\"two of us\","
                        + "\"effect\":\"EFFECT_ALLOW\",\"draft\":false,\"outcome\":\"OUTCOME_REQUIRES_CONSENSUS\"},"
                        + "{\"policyName\":\"no signing\",\"effect\":\"EFFECT_DENY\",\"draft\":true,"
                        + "\"outcome\":\"OUTCOME_DENY_EXPLICIT\"}]");

        // Left out: no policy allows alice to sign, and she is not a root user.
        JsonNode removed = dryRun(waiting.id(), Map.of("removedPolicyIds", List.of(policyId)));
        assertThat(removed.path("decision").path("outcome").asString()).isEqualTo("OUTCOME_DENY_IMPLICIT");
        assertThat(removed.path("decision").path("status").asString()).isEqualTo("ACTIVITY_STATUS_FAILED");
        assertThat(removed.path("policyEvaluations").toString()).isEqualTo("[]");

        // An expression that errors is shown as the evaluation does: a DENY reading what signing does not bind
        // (a private key of a wallet account) does not apply.
        JsonNode erroring = dryRun(
                waiting.id(),
                Map.of(
                        "draftPolicy",
                        draft(null, "keys", "EFFECT_DENY", "private_key.label == 'x'", ""),
                        "removedPolicyIds",
                        List.of(policyId)));
        assertThat(erroring.path("policyEvaluations").get(0).path("outcome").asString())
                .isEqualTo("OUTCOME_ERROR");
        assertThat(erroring.path("policyEvaluations").get(0).has("error")).isTrue();
        assertThat(erroring.path("policyEvaluations").get(0).has("failsClosed")).isFalse();

        assertThat(root.listPolicies().toString()).as("no policy was saved").isEqualTo(policiesBefore);
        assertThat(root.getActivity(waiting.id()).toString())
                .as("the activity is as it was")
                .isEqualTo(activityBefore);
        assertThat(root.getPolicyEvaluations(waiting.id()))
                .as("no evaluation was recorded")
                .hasSize(1);
    }

    @Test
    void dryRunErrorsNameTheField() {
        String policyId = allow("two of us", signWithTheTreasury(), bothApprove());
        Activity waiting = alice.signRawPayload(address, "needs two", TEXT, KECCAK);

        assertThat(apiError(ErrorCode.NOT_FOUND, null, () -> dryRun("no-such-activity", Map.of()))
                        .serverMessage())
                .isEqualTo("no activity found with id no-such-activity in organization " + server.organizationId());
        apiError(ErrorCode.BAD_REQUEST, "activityId", () -> root.query("dry_run_policies", Map.of()));
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "draftPolicy.condition",
                                () -> dryRun(
                                        waiting.id(),
                                        Map.of(
                                                "draftPolicy",
                                                draft(null, "bad", "EFFECT_ALLOW", "wallet.id == (", ""))))
                        .serverMessage())
                .isEqualTo("invalid policy condition: expected an expression at column 15 (draftPolicy.condition)");
        apiError(
                ErrorCode.BAD_REQUEST,
                "draftPolicy.effect",
                () -> dryRun(waiting.id(), Map.of("draftPolicy", Map.of("policyName", "no effect"))));
        apiError(
                ErrorCode.BAD_REQUEST,
                "draftPolicy.policyName",
                () -> dryRun(waiting.id(), Map.of("draftPolicy", Map.of("effect", "EFFECT_ALLOW"))));
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "draftPolicy.policyId",
                                () -> dryRun(
                                        waiting.id(),
                                        Map.of("draftPolicy", draft("no-such-policy", "x", "EFFECT_ALLOW", "", ""))))
                        .serverMessage())
                .isEqualTo("bad request body: draftPolicy.policyId names no policy of this organization");
        apiError(
                ErrorCode.BAD_REQUEST,
                "draftPolicy.policyId",
                () -> dryRun(
                        waiting.id(),
                        Map.of(
                                "draftPolicy",
                                draft(policyId, "x", "EFFECT_ALLOW", "", ""),
                                "removedPolicyIds",
                                List.of(policyId))));
        apiError(
                ErrorCode.BAD_REQUEST,
                "removedPolicyIds[1]",
                () -> dryRun(waiting.id(), Map.of("removedPolicyIds", List.of(policyId, "no-such-policy"))));
        apiError(
                ErrorCode.BAD_REQUEST,
                "removedPolicyIds",
                () -> dryRun(waiting.id(), Map.of("removedPolicyIds", "not a list")));
        assertThat(root.listPolicies()).hasSize(1);
    }

    /**
     * Another organization's activity is not found, even by the parent that may read it in its sub-organization;
     * a user of another organization is refused as by any other read.
     */
    @Test
    void anotherOrganizationsActivityIsNotFoundAndItsUsersAreRefused() {
        ApiKeyStamper subKey = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String subId = root.createSubOrganization(
                        "branch",
                        List.of(RootUserParams.withApiKeys("branch root", List.of(ApiKeyParams.of("key", subKey)))),
                        1)
                .result()
                .path("subOrganizationId")
                .asString();
        KeyhavenClient sub = root.forOrganization(subId).withStamper(subKey);
        Activity theirs = sub.createUserTag("branch tag", List.of());
        assertThat(theirs.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");

        assertThat(apiError(ErrorCode.NOT_FOUND, null, () -> dryRun(theirs.id(), Map.of()))
                        .serverMessage())
                .isEqualTo("no activity found with id " + theirs.id() + " in organization " + server.organizationId());
        // Read in its own organization (the parent's user may read a sub-organization), it is found.
        assertThat(root.forOrganization(subId)
                        .query("dry_run_policies", Map.of("activityId", theirs.id()))
                        .path("decision")
                        .path("outcome")
                        .asString())
                .isEqualTo("OUTCOME_ALLOW");

        KeyhavenClient outsider = sub.forOrganization(server.organizationId());
        KeyhavenApiException listRefused = apiError(() -> outsider.listPolicies());
        for (String query : List.of("dry_run_policies", "check_policy")) {
            KeyhavenApiException refused = apiError(() -> outsider.query(query, Map.of("activityId", theirs.id())));
            assertThat(List.of(refused.httpStatus(), refused.code(), refused.serverMessage()))
                    .as(query + " is authorized as list_policies is")
                    .isEqualTo(List.of(listRefused.httpStatus(), listRefused.code(), listRefused.serverMessage()));
        }
    }

    private JsonNode dryRun(String activityId, Map<String, ?> changes) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("activityId", activityId);
        body.putAll(changes);
        return root.query("dry_run_policies", body);
    }

    private static Map<String, Object> draft(
            String policyId, String name, String effect, String condition, String consensus) {
        Map<String, Object> draft = new LinkedHashMap<>();
        if (policyId != null) {
            draft.put("policyId", policyId);
        }
        draft.put("policyName", name);
        draft.put("effect", effect);
        draft.put("condition", condition);
        draft.put("consensus", consensus);
        return draft;
    }

    private String allow(String name, String condition, String consensus) {
        Activity created = root.createPolicy(name, "EFFECT_ALLOW", condition, consensus, "", null);
        assertThat(created.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        return created.result().path("policyId").asString();
    }

    private String signWithTheTreasury() {
        return "activity.action == 'SIGN' && wallet.id == '" + walletId + "'";
    }

    private String bothApprove() {
        return approvedBy(aliceId) + " && " + approvedBy(bobId);
    }

    private static String approvedBy(String userId) {
        return "approvers.any(u, u.id == '" + userId + "')";
    }

    private static String without(JsonNode node, String field) {
        tools.jackson.databind.node.ObjectNode copy = (tools.jackson.databind.node.ObjectNode) node.deepCopy();
        copy.remove(field);
        return copy.toString();
    }
}
