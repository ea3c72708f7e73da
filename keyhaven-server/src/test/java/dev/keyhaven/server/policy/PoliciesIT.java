package dev.keyhaven.server.policy;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.ApiKeyParams;
import dev.keyhaven.client.Requests.PrivateKeyParams;
import dev.keyhaven.client.Requests.UserParams;
import dev.keyhaven.client.Requests.WalletAccountParams;
import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.TestServer;
import dev.keyhaven.server.testing.TypedData;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import tools.jackson.databind.JsonNode;

/**
 * Policies end to end over HTTP, on both stores: their operations and errors, and the engine deciding on real
 * activities of three non-root users (alice, bob, carol) in Turnkey's order, with approvals and rejections by
 * fingerprint. Every test removes the policies it created.
 */
class PoliciesIT extends OnBothStores {
    private static final HexFormat HEX = HexFormat.of();
    private static final String KECCAK = "HASH_FUNCTION_KECCAK256";
    private static final String TEXT = "PAYLOAD_ENCODING_TEXT_UTF8";

    private KeyhavenClient alice;
    private KeyhavenClient bob;
    private KeyhavenClient carol;
    private ApiKeyStamper carolKey;
    private String aliceId;
    private String bobId;
    private String walletId;
    private String address;
    private String publicKey;
    private String privateKeyId;

    @BeforeParameterizedClassInvocation
    void createUsersAndKeys() {
        List<ApiKeyStamper> keys = new ArrayList<>();
        List<UserParams> users = new ArrayList<>();
        for (String name : List.of("alice", "bob", "carol")) {
            ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
            keys.add(key);
            users.add(UserParams.withApiKeys(name, List.of(ApiKeyParams.of(name + "'s key", key))));
        }
        JsonNode ids = root.createUsers(users).result().path("userIds");
        aliceId = ids.get(0).asString();
        bobId = ids.get(1).asString();
        alice = root.withStamper(keys.get(0));
        bob = root.withStamper(keys.get(1));
        carol = root.withStamper(keys.get(2));
        carolKey = keys.get(2);
        walletId = root.createWallet("treasury", List.of(WalletAccountParams.ethereum(0)))
                .result()
                .path("walletId")
                .asString();
        JsonNode account = root.query("list_wallet_accounts", Map.of("walletId", walletId))
                .path("accounts")
                .get(0);
        address = account.path("address").asString();
        publicKey = account.path("publicKey").asString();
        privateKeyId = root.createPrivateKeys(List.of(new PrivateKeyParams(
                        "hot key", "CURVE_SECP256K1", List.of(), List.of("ADDRESS_FORMAT_ETHEREUM"))))
                .result()
                .path("privateKeys")
                .get(0)
                .path("privateKeyId")
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

    private String allow(String name, String condition, String consensus) {
        return create(name, "EFFECT_ALLOW", condition, consensus);
    }

    private String create(String name, String effect, String condition, String consensus) {
        Activity created = root.createPolicy(name, effect, condition, consensus, "notes of " + name, null);
        assertThat(created.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        return created.result().path("policyId").asString();
    }

    private String approvedBy(String... userIds) {
        List<String> quoted = new ArrayList<>();
        for (String id : userIds) {
            quoted.add("u.id == '" + id + "'");
        }
        return "approvers.filter(u, " + String.join(" || ", quoted) + ").count() >= " + userIds.length;
    }

    private Activity sign(KeyhavenClient as, String signWith, String message) {
        return as.signRawPayload(signWith, message, TEXT, KECCAK);
    }

    private void assertSignedByAccount(String message, JsonNode signature) {
        byte[] digest = Digests.keccak256(message.getBytes(StandardCharsets.UTF_8));
        ECDSASigner verifier = new ECDSASigner();
        verifier.init(
                false,
                new ECPublicKeyParameters(
                        EcCurve.SECP256K1.decodePoint(HEX.parseHex(publicKey)), EcCurve.SECP256K1.domain()));
        assertThat(verifier.verifySignature(
                        digest,
                        new BigInteger(signature.path("r").asString(), 16),
                        new BigInteger(signature.path("s").asString(), 16)))
                .as("signature verifies")
                .isTrue();
    }

    // ---- the policy operations ---------------------------------------------------------------------------------

    @Test
    void aPolicyIsCreatedReadUpdatedAndDeleted() {
        Activity created = root.createPolicy(
                "weekday signing",
                "EFFECT_ALLOW",
                "activity.action == 'SIGN'",
                "approvers.any(u, u.id == '" + aliceId + "')",
                "for the desk",
                "time.now >= Timestamp('2026-01-01T00:00:00Z')");
        assertThat(created.type()).isEqualTo("ACTIVITY_TYPE_CREATE_POLICY_V3");
        String id = created.result().path("policyId").asString();

        JsonNode policy = root.getPolicy(id);
        assertThat(policy.path("policyId").asString()).isEqualTo(id);
        assertThat(policy.path("policyName").asString()).isEqualTo("weekday signing");
        assertThat(policy.path("effect").asString()).isEqualTo("EFFECT_ALLOW");
        assertThat(policy.path("condition").asString()).isEqualTo("activity.action == 'SIGN'");
        assertThat(policy.path("consensus").asString()).isEqualTo("approvers.any(u, u.id == '" + aliceId + "')");
        assertThat(policy.path("notes").asString()).isEqualTo("for the desk");
        assertThat(policy.path("time").asString()).isEqualTo("time.now >= Timestamp('2026-01-01T00:00:00Z')");
        assertThat(policy.path("createdAt").path("seconds").asString()).isNotEmpty();
        assertThat(policy.path("updatedAt").path("seconds").asString()).isNotEmpty();
        assertThat(root.listPolicies()).singleElement().isEqualTo(policy);

        Activity updated = root.submit(
                "update_policy",
                "ACTIVITY_TYPE_UPDATE_POLICY_V2",
                Map.of("policyId", id, "policyName", "any time", "policyEffect", "EFFECT_DENY", "time", ""),
                "updatePolicyResultV2");
        assertThat(updated.result().path("policyId").asString()).isEqualTo(id);
        JsonNode changed = root.getPolicy(id);
        assertThat(changed.path("policyName").asString()).isEqualTo("any time");
        assertThat(changed.path("effect").asString()).isEqualTo("EFFECT_DENY");
        assertThat(changed.has("time")).as("an empty time removes the window").isFalse();
        assertThat(changed.path("condition")).as("fields not named are kept").isEqualTo(policy.path("condition"));
        assertThat(changed.path("notes")).isEqualTo(policy.path("notes"));

        Activity deleted = root.deletePolicy(id);
        assertThat(deleted.result().path("policyId").asString()).isEqualTo(id);
        assertThat(root.listPolicies()).isEmpty();
        assertThat(apiError(() -> root.getPolicy(id)).httpStatus()).isEqualTo(404);
    }

    @Test
    void absentExpressionsAreStoredEmpty() {
        String id = create("everything", "EFFECT_ALLOW", null, null);
        JsonNode policy = root.getPolicy(id);
        assertThat(policy.path("condition").asString()).isEmpty();
        assertThat(policy.path("consensus").asString()).isEmpty();
        assertThat(policy.has("time")).isFalse();
    }

    @Test
    void createPoliciesAndDeletePoliciesAreAllOrNothing() {
        Map<String, Object> first = Map.of("policyName", "one", "effect", "EFFECT_ALLOW", "notes", "");
        Map<String, Object> twin = Map.of("policyName", "one", "effect", "EFFECT_DENY", "notes", "");
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> root.submit(
                                        "create_policies",
                                        "ACTIVITY_TYPE_CREATE_POLICIES",
                                        Map.of("policies", List.of(first, twin)),
                                        "createPoliciesResult"))
                        .serverMessage())
                .isEqualTo("policy label must be unique");
        assertThat(root.listPolicies()).isEmpty();

        Activity both = root.submit(
                "create_policies",
                "ACTIVITY_TYPE_CREATE_POLICIES",
                Map.of("policies", List.of(first, Map.of("policyName", "two", "effect", "EFFECT_DENY", "notes", ""))),
                "createPoliciesResult");
        List<String> ids = new ArrayList<>();
        both.result().path("policyIds").forEach(id -> ids.add(id.asString()));
        assertThat(ids).hasSize(2);
        assertThat(root.listPolicies())
                .extracting(p -> p.path("policyName").asString())
                .containsExactly("one", "two");

        KeyhavenApiException unknown = apiError(
                ErrorCode.NOT_FOUND,
                null,
                () -> root.submit(
                        "delete_policies",
                        "ACTIVITY_TYPE_DELETE_POLICIES",
                        Map.of("policyIds", List.of(ids.get(0), "no-such-policy")),
                        "deletePoliciesResult"));
        assertThat(unknown.serverMessage()).isEqualTo("no policy found with id no-such-policy");
        assertThat(root.listPolicies()).hasSize(2);
    }

    @Test
    void invalidPoliciesAreRefusedWithTheRealMessages() {
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.condition",
                                () -> root.createPolicy(
                                        "bad",
                                        "EFFECT_ALLOW",
                                        "activity.action == 'SIGN' && (wallet.id == 'w'",
                                        null,
                                        "",
                                        null))
                        .serverMessage())
                .startsWith("invalid policy condition: expected ')' at column ")
                .endsWith(" (parameters.condition)");
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.consensus",
                                () -> root.createPolicy("bad", "EFFECT_ALLOW", null, "approvers.any(u,", "", null))
                        .serverMessage())
                .startsWith("invalid policy consensus: ");
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.time",
                                () -> root.createPolicy("bad", "EFFECT_ALLOW", null, null, "", "time.now >"))
                        .serverMessage())
                .startsWith("invalid policy time: ");
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.effect",
                () -> root.createPolicy("bad", "EFFECT_MAYBE", null, null, "", null));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.policyName",
                () -> root.createPolicy(" ", "EFFECT_ALLOW", null, null, "", null));
        assertThat(root.listPolicies()).as("nothing was written").isEmpty();

        String id = create("taken", "EFFECT_ALLOW", null, null);
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> root.createPolicy("taken", "EFFECT_DENY", null, null, "", null))
                        .serverMessage())
                .isEqualTo("policy label must be unique");
        create("other", "EFFECT_ALLOW", null, null);
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> root.submit(
                                        "update_policy",
                                        "ACTIVITY_TYPE_UPDATE_POLICY_V2",
                                        Map.of("policyId", id, "policyName", "other"),
                                        "updatePolicyResultV2"))
                        .serverMessage())
                .isEqualTo("policy label must be unique");
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.policyCondition",
                                () -> root.submit(
                                        "update_policy",
                                        "ACTIVITY_TYPE_UPDATE_POLICY_V2",
                                        Map.of("policyId", id, "policyCondition", "1 +"),
                                        "updatePolicyResultV2"))
                        .serverMessage())
                .startsWith("invalid policy condition: unexpected character");
        assertThat(apiError(() -> root.submit(
                                "update_policy",
                                "ACTIVITY_TYPE_UPDATE_POLICY_V2",
                                Map.of("policyId", "no-such-policy"),
                                "updatePolicyResultV2"))
                        .httpStatus())
                .isEqualTo(404);
        assertThat(apiError(() -> root.deletePolicy("no-such-policy")).httpStatus())
                .isEqualTo(404);
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.policyId",
                () -> root.submit(
                        "update_policy",
                        "ACTIVITY_TYPE_UPDATE_POLICY_V2",
                        Map.of("policyName", "x"),
                        "updatePolicyResultV2"));
        assertThat(apiError(() -> root.submit(
                                "create_policies",
                                "ACTIVITY_TYPE_CREATE_POLICIES",
                                Map.of("policies", List.of()),
                                "createPoliciesResult"))
                        .httpStatus())
                .isEqualTo(400);
        assertThat(root.getPolicy(id).path("policyName").asString()).isEqualTo("taken");
    }

    @Test
    void anOrganizationHoldsAtMostOneHundredPolicies() {
        List<Map<String, Object>> many = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            many.add(Map.of("policyName", "p" + i, "effect", "EFFECT_ALLOW", "notes", ""));
        }
        assertThat(apiError(
                                ErrorCode.LIMIT_EXCEEDED,
                                null,
                                () -> root.submit(
                                        "create_policies",
                                        "ACTIVITY_TYPE_CREATE_POLICIES",
                                        Map.of("policies", many),
                                        "createPoliciesResult"))
                        .serverMessage())
                .isEqualTo("organization has exceeded maximum policies (100)");
        assertThat(root.listPolicies()).isEmpty();
    }

    // ---- the engine --------------------------------------------------------------------------------------------

    @Test
    void aNonRootUserIsDeniedThenAllowedByAPolicyAndADenyOverridesIt() {
        Activity denied = sign(alice, address, "before any policy");
        assertThat(denied.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        assertThat(denied.failure().orElseThrow().message()).contains("implicit deny");

        String allowId = allow(
                "alice signs from the treasury",
                "activity.action == 'SIGN' && wallet.id == '" + walletId + "' && wallet_account.address == '" + address
                        + "'",
                "approvers.any(u, u.id == '" + aliceId + "')");
        Activity signed = sign(alice, address, "with a policy");
        assertThat(signed.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertSignedByAccount("with a policy", signed.result());
        assertThat(sign(bob, address, "bob is not alice").status())
                .as("it waits for alice's approval")
                .isEqualTo("ACTIVITY_STATUS_CONSENSUS_NEEDED");
        assertThat(sign(alice, privateKeyId, "the condition names the wallet").status())
                .as("wallet.id is missing when signing with a private key: the policy errs and allows nothing")
                .isEqualTo("ACTIVITY_STATUS_FAILED");

        String denyId =
                create("no keccak", "EFFECT_DENY", "activity.params.hash_function == 'HASH_FUNCTION_KECCAK256'", null);
        Activity overridden = sign(alice, address, "deny wins");
        assertThat(overridden.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        assertThat(overridden.failure().orElseThrow().message()).isEqualTo("request denied by policy " + denyId);

        JsonNode evaluations = root.getPolicyEvaluations(overridden.id());
        assertThat(evaluations).hasSize(1);
        JsonNode evaluation = evaluations.get(0);
        assertThat(evaluation.path("activityId").asString()).isEqualTo(overridden.id());
        assertThat(evaluation.path("voteId").asString())
                .isEqualTo(overridden.raw().path("votes").get(0).path("id").asString());
        assertThat(evaluation.path("policyEvaluations").toString())
                .contains("{\"policyId\":\"" + allowId + "\",\"outcome\":\"OUTCOME_ALLOW\"}")
                .contains("{\"policyId\":\"" + denyId + "\",\"outcome\":\"OUTCOME_DENY_EXPLICIT\"}")
                .contains("{\"outcome\":\"OUTCOME_DENY_EXPLICIT\"}");
    }

    @Test
    void policiesReadPrivateKeysAndTypedData() {
        allow("the hot key", "activity.action == 'SIGN' && private_key.id == '" + privateKeyId + "'", null);
        assertThat(sign(carol, privateKeyId, "hot").status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(sign(carol, address, "not the hot key").status()).isEqualTo("ACTIVITY_STATUS_FAILED");

        allow(
                "permits",
                "eth.eip_712.domain.name == 'Ether Mail' && eth.eip_712.primary_type == 'Mail'"
                        + " && eth.eip_712.message.to.name == 'Bob' && eth.eip_712.domain.chain_id == 1",
                null);
        assertThat(carol.signRawPayload(address, TypedData.MAIL, "PAYLOAD_ENCODING_EIP712", "HASH_FUNCTION_NO_OP")
                        .status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");
    }

    @Test
    void exportsAreGatedByTheAccountAndTheTargetKey() {
        String target = TestServer.newKey(ApiKeyStamper.Curve.P256).publicKey();
        Map<String, Object> export = Map.of("address", address, "targetPublicKey", target);
        assertThat(carol.submit(
                                "export_wallet_account",
                                "ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT",
                                export,
                                "exportWalletAccountResult")
                        .status())
                .isEqualTo("ACTIVITY_STATUS_FAILED");
        allow(
                "carol exports the treasury account to her key",
                "activity.action == 'EXPORT' && wallet_account.address"
                        + " == '" + address + "' && wallet.id == '" + walletId
                        + "' && activity.params.target_public_key == '"
                        + target + "'",
                null);
        Activity exported = carol.submit(
                "export_wallet_account", "ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT", export, "exportWalletAccountResult");
        assertThat(exported.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(exported.result().path("exportBundle").asString()).isNotEmpty();
        String other = TestServer.newKey(ApiKeyStamper.Curve.P256).publicKey();
        assertThat(carol.submit(
                                "export_wallet_account",
                                "ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT",
                                Map.of("address", address, "targetPublicKey", other),
                                "exportWalletAccountResult")
                        .status())
                .as("another target key is not allowed")
                .isEqualTo("ACTIVITY_STATUS_FAILED");
        assertThat(carol.submit(
                                "export_private_key",
                                "ACTIVITY_TYPE_EXPORT_PRIVATE_KEY",
                                Map.of("privateKeyId", privateKeyId, "targetPublicKey", target),
                                "exportPrivateKeyResult")
                        .status())
                .isEqualTo("ACTIVITY_STATUS_FAILED");
    }

    @Test
    void aTwoApproverPolicyWaitsForTheSecondApprovalThenSigns() {
        allow("two of us", "activity.action == 'SIGN'", approvedBy(aliceId, bobId));
        Activity pending = sign(alice, address, "needs two");
        assertThat(pending.status()).isEqualTo("ACTIVITY_STATUS_CONSENSUS_NEEDED");
        assertThat(pending.raw().path("canApprove").asBoolean())
                .as("alice has voted")
                .isFalse();
        assertThat(bob.getActivity(pending.id()).path("canApprove").asBoolean()).isTrue();
        assertThat(bob.getActivity(pending.id()).path("canReject").asBoolean()).isTrue();

        Activity approved = bob.approveActivity(pending.fingerprint(), "signRawPayloadResult");
        assertThat(approved.id()).as("the response is the target activity").isEqualTo(pending.id());
        assertThat(approved.type()).isEqualTo("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2");
        assertThat(approved.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(approved.voteCount()).isEqualTo(2);
        assertThat(approved.raw().path("votes").get(1).path("userId").asString())
                .isEqualTo(bobId);
        assertThat(approved.raw().path("votes").get(1).path("selection").asString())
                .isEqualTo("VOTE_SELECTION_APPROVED");
        assertThat(approved.raw().path("votes").get(1).path("message").asString())
                .as("the vote keeps the approval's own signed body")
                .contains("ACTIVITY_TYPE_APPROVE_ACTIVITY");
        assertSignedByAccount("needs two", approved.result());
        assertThat(approved.raw().path("canApprove").asBoolean()).isFalse();

        assertThat(bob.approveActivity(pending.fingerprint(), "signRawPayloadResult")
                        .voteCount())
                .as("a second approval by the same user changes nothing")
                .isEqualTo(2);
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> carol.approveActivity(pending.fingerprint(), "signRawPayloadResult"))
                        .serverMessage())
                .isEqualTo("activity " + pending.id()
                        + " is not awaiting consensus (status ACTIVITY_STATUS_COMPLETED); the vote was not recorded");

        JsonNode evaluations = root.getPolicyEvaluations(pending.id());
        assertThat(evaluations).hasSize(2);
        assertThat(evaluations.get(0).path("policyEvaluations").toString()).contains("OUTCOME_REQUIRES_CONSENSUS");
        assertThat(evaluations.get(0).path("createdAt").path("seconds").asString())
                .isNotEmpty();
        assertThat(evaluations.get(1).path("policyEvaluations").toString()).contains("\"OUTCOME_ALLOW\"");
    }

    @Test
    void policiesSeeTheUserWhoseCredentialsAnActivityChanges() {
        Map<String, Object> providerOfAlice = Map.of(
                "userId",
                aliceId,
                "oauthProviders",
                List.of(Map.of(
                        "providerName",
                        "p",
                        "oidcClaims",
                        Map.of(
                                "iss",
                                "https://issuer.example",
                                "aud",
                                "app",
                                "sub",
                                "alice-" + java.util.UUID.randomUUID()))));
        Activity denied = bob.submit(
                "create_oauth_providers",
                "ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2",
                providerOfAlice,
                "createOauthProvidersResultV2");
        assertThat(denied.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        allow("bob manages alice's credentials", "activity.params.user_id == '" + aliceId + "'", approvedBy(bobId));
        Activity allowed = bob.submit(
                "create_oauth_providers",
                "ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2",
                providerOfAlice,
                "createOauthProvidersResultV2");
        assertThat(allowed.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        List<String> providerIds = allowed.result()
                .path("providerIds")
                .valueStream()
                .map(JsonNode::asString)
                .toList();
        Activity deleted = bob.submit(
                "delete_oauth_providers",
                "ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS",
                Map.of("userId", aliceId, "providerIds", providerIds),
                "deleteOauthProvidersResult");
        assertThat(deleted.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
    }

    @Test
    void aRejectionEndsTheActivity() {
        allow("two of us", "activity.action == 'SIGN'", approvedBy(aliceId, bobId));
        Activity pending = sign(alice, address, "to be rejected");
        Activity rejected = bob.rejectActivity(pending.fingerprint(), "signRawPayloadResult");
        assertThat(rejected.id()).isEqualTo(pending.id());
        assertThat(rejected.status()).isEqualTo("ACTIVITY_STATUS_REJECTED");
        assertThat(rejected.result().isMissingNode()).isTrue();
        assertThat(rejected.raw().path("votes").get(1).path("selection").asString())
                .isEqualTo("VOTE_SELECTION_REJECTED");
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> carol.approveActivity(pending.fingerprint(), "signRawPayloadResult"))
                        .serverMessage())
                .isEqualTo("activity " + pending.id()
                        + " is not awaiting consensus (status ACTIVITY_STATUS_REJECTED); the vote was not recorded");
        assertThat(root.getActivity(pending.id()).path("status").asString()).isEqualTo("ACTIVITY_STATUS_REJECTED");
        assertThat(root.getPolicyEvaluations(pending.id())
                        .get(1)
                        .path("policyEvaluations")
                        .toString())
                .contains("OUTCOME_REJECTED");
    }

    @Test
    void votesNameAnExistingActivityOfTheOrganization() {
        assertThat(apiError(ErrorCode.NOT_FOUND, null, () -> bob.approveActivity("00".repeat(32), "x"))
                        .serverMessage())
                .isEqualTo("No activity found with fingerprint. Consensus activities must target an "
                        + "existing activity by fingerprint");
        assertThat(apiError(() -> bob.rejectActivity("00".repeat(32), "x")).httpStatus())
                .isEqualTo(404);
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.fingerprint",
                () -> bob.submit("approve_activity", "ACTIVITY_TYPE_APPROVE_ACTIVITY", Map.of(), "x"));
        assertThat(apiError(() -> bob.getPolicyEvaluations("no-such-activity")).httpStatus())
                .isEqualTo(404);
    }

    @Test
    void concurrentApprovalsExecuteTheActivityOnce() throws Exception {
        allow("two for tags", "activity.resource == 'USER' && activity.action == 'CREATE'", "approvers.count() >= 2");
        for (int round = 0; round < 5; round++) {
            Activity pending = alice.createUserTag("raced " + round, List.of());
            assertThat(pending.status()).isEqualTo("ACTIVITY_STATUS_CONSENSUS_NEEDED");
            List<Thread> voters = new ArrayList<>();
            List<Object> outcomes = java.util.Collections.synchronizedList(new ArrayList<>());
            for (KeyhavenClient voter : List.of(bob, carol)) {
                voters.add(Thread.ofVirtual().start(() -> {
                    try {
                        outcomes.add(voter.approveActivity(pending.fingerprint(), "createUserTagResult")
                                .status());
                    } catch (KeyhavenApiException e) {
                        outcomes.add(e.httpStatus());
                    }
                }));
            }
            for (Thread voter : voters) {
                voter.join();
            }
            assertThat(outcomes).contains("ACTIVITY_STATUS_COMPLETED");
            JsonNode done = root.getActivity(pending.id());
            assertThat(done.path("status").asString()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
            assertThat(done.path("votes").size())
                    .as("the late approval was not counted")
                    .isEqualTo(2);
        }
        List<String> tags = new ArrayList<>();
        root.listUserTags().forEach(t -> tags.add(t.path("tagName").asString()));
        assertThat(tags.stream().filter(t -> t.startsWith("raced "))).hasSize(5).doesNotHaveDuplicates();
    }

    /**
     * Approvals of one activity arriving at two servers of one deployment at once (a load balancer spreads them):
     * the activity runs once and both votes are counted, whichever server's vote came second.
     */
    @Test
    void approvalsArrivingAtTwoServersAtOnceExecuteTheActivityOnce() throws Exception {
        allow("two for tags", "activity.resource == 'USER' && activity.action == 'CREATE'", "approvers.count() >= 2");
        try (TestServer peer = server.peer()) {
            KeyhavenClient carolElsewhere = peer.rootClient().withStamper(carolKey);
            for (int round = 0; round < 5; round++) {
                Activity pending = alice.createUserTag("spread " + round, List.of());
                assertThat(pending.status()).isEqualTo("ACTIVITY_STATUS_CONSENSUS_NEEDED");
                List<Thread> voters = new ArrayList<>();
                List<Object> outcomes = java.util.Collections.synchronizedList(new ArrayList<>());
                for (KeyhavenClient voter : List.of(bob, carolElsewhere)) {
                    voters.add(Thread.ofVirtual().start(() -> {
                        try {
                            outcomes.add(voter.approveActivity(pending.fingerprint(), "createUserTagResult")
                                    .status());
                        } catch (KeyhavenApiException e) {
                            outcomes.add(e.httpStatus());
                        }
                    }));
                }
                for (Thread voter : voters) {
                    voter.join();
                }
                assertThat(outcomes).contains("ACTIVITY_STATUS_COMPLETED");
                JsonNode done = root.getActivity(pending.id());
                assertThat(done.path("status").asString()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
                assertThat(done.path("votes").size()).isEqualTo(2);
            }
        }
        List<String> tags = new ArrayList<>();
        root.listUserTags().forEach(t -> tags.add(t.path("tagName").asString()));
        assertThat(tags.stream().filter(t -> t.startsWith("spread ")))
                .hasSize(5)
                .doesNotHaveDuplicates();
    }

    @Test
    void rootQuorumOnlyActivitiesIgnorePolicies() {
        allow("everything", null, null);
        assertThat(alice.createUserTag("allowed by policy", List.of()).status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        Activity quorum = alice.updateRootQuorum(1, List.of(aliceId));
        assertThat(quorum.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        assertThat(root.getOrganization().path("rootQuorum").path("userIds").toString())
                .doesNotContain(aliceId);
    }

    @Test
    void queriesAreNotPolicyGated() {
        create("deny everything", "EFFECT_DENY", null, null);
        assertThat(alice.listWallets()).isNotEmpty();
        assertThat(alice.listPolicies()).hasSize(1);
        assertThat(sign(alice, address, "denied").status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        assertThat(sign(root, address, "the root quorum bypasses policies").status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");
    }
}
