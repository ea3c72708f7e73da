package dev.keyhaven.server.activity;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.ApiKeyParams;
import dev.keyhaven.client.Requests.UserParams;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.Json;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.TestServer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The activity lifecycle: the envelope, idempotency by fingerprint, votes and root-quorum consensus, implicit
 * rules, failures, and reading activities back.
 */
class ActivitiesIT extends OnBothStores {

    private record Member(String userId, KeyhavenClient client) {}

    private Member newUser(String name) {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String id = root.createUsers(List.of(UserParams.withApiKeys(name, List.of(ApiKeyParams.of("k", key)))))
                .result()
                .path("userIds")
                .get(0)
                .asString();
        return new Member(id, root.withStamper(key));
    }

    @Test
    void anActivityHasEveryRequiredFieldOfTheWireShape() {
        Activity activity = root.createUserTag("shape", List.of());
        JsonNode raw = activity.raw();
        assertThat(raw.propertyNames())
                .contains(
                        "id",
                        "organizationId",
                        "status",
                        "type",
                        "intent",
                        "result",
                        "votes",
                        "fingerprint",
                        "canApprove",
                        "canReject",
                        "createdAt",
                        "updatedAt");
        assertThat(raw.path("intent")
                        .path("createUserTagIntent")
                        .path("userTagName")
                        .asString())
                .isEqualTo("shape");
        assertThat(raw.path("result")
                        .path("createUserTagResult")
                        .path("userTagId")
                        .asString())
                .isNotEmpty();
        assertThat(raw.path("canApprove").asBoolean()).isFalse();
        assertThat(Instant.parse(raw.path("createdAt").asString())).isNotNull();
        JsonNode vote = raw.path("votes").get(0);
        assertThat(vote.path("userId").asString()).isEqualTo(server.rootUserId());
        assertThat(vote.path("selection").asString()).isEqualTo("VOTE_SELECTION_APPROVED");
        assertThat(vote.path("scheme").asString()).isEqualTo("SIGNATURE_SCHEME_TK_API_P256");
        assertThat(vote.path("publicKey").asString())
                .isEqualTo(server.rootStamper().publicKey());
        assertThat(vote.path("message").asString()).contains("\"userTagName\":\"shape\"");
        assertThat(vote.path("user").path("userName").asString()).isEqualTo("root");
        assertThat(activity.fingerprint()).hasSize(Fingerprint.LENGTH); // FingerprintsIT pins its form
    }

    @Test
    void aByteIdenticalResubmissionReturnsTheSameActivityWithoutASecondEffect() {
        byte[] body =
                root.submitBody("ACTIVITY_TYPE_CREATE_USER_TAG", Map.of("userTagName", "once", "userIds", List.of()));
        Activity first = root.submitRaw("create_user_tag", body, "createUserTagResult");
        Activity second = root.submitRaw("create_user_tag", body, "createUserTagResult");
        assertThat(second.id()).isEqualTo(first.id());
        assertThat(second.result()).isEqualTo(first.result());
        assertThat(root.listUserTags())
                .filteredOn(t -> t.path("tagName").asString().equals("once"))
                .hasSize(1);
    }

    @Test
    void aNonRootUserIsDeniedInsideA200WithAFailedActivity() {
        Member bob = newUser("bob-denied");
        Activity denied = bob.client()
                .createUsers(List.of(UserParams.withApiKeys(
                        "eve", List.of(ApiKeyParams.of("k", TestServer.newKey(ApiKeyStamper.Curve.P256))))));
        assertThat(denied.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        assertThat(denied.failure()).hasValueSatisfying(f -> {
            assertThat(f.code()).isEqualTo(7);
            assertThat(f.message()).contains("implicit deny");
        });
        assertThat(denied.raw().path("result").isEmpty()).isTrue();
        assertThat(root.listUsers())
                .noneMatch(u -> u.path("userName").asString().equals("eve"));
    }

    @Test
    void usersManageTheirOwnApiKeysButNotOthers() {
        Member carol = newUser("carol");
        Member dave = newUser("dave");
        ApiKeyStamper extra = TestServer.newKey(ApiKeyStamper.Curve.ED25519);
        Activity own = carol.client().createApiKeys(carol.userId(), List.of(ApiKeyParams.of("second", extra)));
        assertThat(own.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        String keyId = own.result().path("apiKeyIds").get(0).asString();
        assertThat(root.withStamper(extra).whoami().userId()).isEqualTo(carol.userId());

        Activity foreign = carol.client()
                .createApiKeys(
                        dave.userId(), List.of(ApiKeyParams.of("sneaky", TestServer.newKey(ApiKeyStamper.Curve.P256))));
        assertThat(foreign.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        assertThat(carol.client().deleteApiKeys(dave.userId(), List.of(keyId)).status())
                .isEqualTo("ACTIVITY_STATUS_FAILED");

        assertThat(carol.client().deleteApiKeys(carol.userId(), List.of(keyId)).status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");
        apiError(
                ErrorCode.PUBLIC_KEY_NOT_FOUND,
                null,
                () -> root.withStamper(extra).whoami());
    }

    @Test
    void withAThresholdOfTwoARootActivityWaitsForASecondRootApprovalByIdenticalStamp() {
        TestServer quorumServer = TestServer.start(store);
        try {
            KeyhavenClient first = quorumServer.rootClient();
            ApiKeyStamper secondKey = TestServer.newKey(ApiKeyStamper.Curve.P256);
            String secondId = first.createUsers(
                            List.of(UserParams.withApiKeys("second root", List.of(ApiKeyParams.of("k", secondKey)))))
                    .result()
                    .path("userIds")
                    .get(0)
                    .asString();
            assertThat(first.updateRootQuorum(2, List.of(quorumServer.rootUserId(), secondId))
                            .status())
                    .isEqualTo("ACTIVITY_STATUS_COMPLETED");
            assertThat(first.getOrganization()
                            .path("rootQuorum")
                            .path("threshold")
                            .asInt())
                    .isEqualTo(2);

            byte[] body = first.submitBody(
                    "ACTIVITY_TYPE_CREATE_USER_TAG", Map.of("userTagName", "needs two", "userIds", List.of()));
            Activity pending = first.submitRaw("create_user_tag", body, "createUserTagResult");
            assertThat(pending.status()).isEqualTo("ACTIVITY_STATUS_CONSENSUS_NEEDED");
            // The submitter has voted; the second root user still can.
            assertThat(pending.raw().path("canApprove").asBoolean()).isFalse();
            assertThat(first.withStamper(secondKey)
                            .getActivity(pending.id())
                            .path("canApprove")
                            .asBoolean())
                    .isTrue();
            assertThat(pending.raw().path("result").isEmpty()).isTrue();
            assertThat(first.listUserTags()).isEmpty();

            Activity again = first.submitRaw("create_user_tag", body, "createUserTagResult");
            assertThat(again.status()).isEqualTo("ACTIVITY_STATUS_CONSENSUS_NEEDED");
            assertThat(again.voteCount()).isEqualTo(1);

            Activity approved = first.withStamper(secondKey).submitRaw("create_user_tag", body, "createUserTagResult");
            assertThat(approved.id()).isEqualTo(pending.id());
            assertThat(approved.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
            assertThat(approved.voteCount()).isEqualTo(2);
            assertThat(approved.result().path("userTagId").asString()).isNotEmpty();
            assertThat(first.listUserTags()).hasSize(1);
            assertThat(first.getActivity(pending.id()).path("status").asString())
                    .isEqualTo("ACTIVITY_STATUS_COMPLETED");
        } finally {
            quorumServer.close();
        }
    }

    @Test
    void anActivityWhoseExecutionBreaksARuleIsRecordedFailedAndReportedAsAnError() {
        byte[] body = root.submitBody(
                "ACTIVITY_TYPE_DELETE_USERS", Map.of("userIds", List.of("00000000-0000-7000-8000-000000000000")));
        KeyhavenApiException error =
                apiError(ErrorCode.NOT_FOUND, null, () -> root.submitRaw("delete_users", body, "deleteUsersResult"));
        assertThat(error.serverMessage()).isEqualTo("no user found with id 00000000-0000-7000-8000-000000000000");
        KeyhavenApiException again =
                apiError(ErrorCode.NOT_FOUND, null, () -> root.submitRaw("delete_users", body, "deleteUsersResult"));
        assertThat(again.serverMessage()).isEqualTo(error.serverMessage());
        List<JsonNode> failed = root.listActivities(
                List.of("ACTIVITY_STATUS_FAILED"), List.of("ACTIVITY_TYPE_DELETE_USERS"), null, null, null);
        assertThat(failed).hasSize(1);
        assertThat(failed.getFirst().path("failure").path("code").asInt()).isEqualTo(5);
        assertThat(failed.getFirst().path("failure").path("message").asString()).isEqualTo(error.serverMessage());
    }

    @Test
    void theEnvelopeIsChecked() {
        Map<String, Object> params = Map.of("userTagName", "t", "userIds", List.of());
        String org = server.organizationId();
        String now = Long.toString(System.currentTimeMillis());
        assertThat(submitError(
                        "create_user_tag",
                        Map.of(
                                "type",
                                "ACTIVITY_TYPE_CREATE_USERS_V4",
                                "timestampMs",
                                now,
                                "organizationId",
                                org,
                                "parameters",
                                params)))
                .contains("does not match operation create_user_tag");
        assertThat(submitError(
                        "create_user_tag",
                        Map.of(
                                "type",
                                "ACTIVITY_TYPE_NOPE",
                                "timestampMs",
                                now,
                                "organizationId",
                                org,
                                "parameters",
                                params)))
                .contains("unknown activity type");
        assertThat(submitError(
                        "create_user_tag", Map.of("timestampMs", now, "organizationId", org, "parameters", params)))
                .contains("type is required");
        assertThat(submitError(
                        "create_user_tag",
                        Map.of("type", "ACTIVITY_TYPE_CREATE_USER_TAG", "organizationId", org, "parameters", params)))
                .contains("timestampMs is required");
        assertThat(submitError(
                        "create_user_tag",
                        Map.of("type", "ACTIVITY_TYPE_CREATE_USER_TAG", "timestampMs", now, "organizationId", org)))
                .contains("parameters is required");
        assertThat(submitError(
                        "create_user_tag",
                        Map.of(
                                "type",
                                "ACTIVITY_TYPE_CREATE_USER_TAG",
                                "timestampMs",
                                now,
                                "organizationId",
                                org,
                                "parameters",
                                params,
                                "generateAppProofs",
                                "yes")))
                .contains("generateAppProofs must be a boolean");
        assertThat(submitError(
                        "create_user_tag",
                        Map.of(
                                "type",
                                "ACTIVITY_TYPE_CREATE_USER_TAG",
                                "timestampMs",
                                "soon",
                                "organizationId",
                                org,
                                "parameters",
                                params)))
                .contains("timestampMs");
    }

    @Test
    void requestsOutsideTheLivenessWindowAreRefused() {
        Map<String, Object> params = Map.of("userTagName", "late", "userIds", List.of());
        long now = System.currentTimeMillis();
        for (long at : List.of(now - 61 * 60_000L, now + 6 * 60_000L)) {
            KeyhavenClient.RawResponse response = root.post(
                    "/public/v1/submit/create_user_tag",
                    Json.bytes(Map.of(
                            "type",
                            "ACTIVITY_TYPE_CREATE_USER_TAG",
                            "timestampMs",
                            Long.toString(at),
                            "organizationId",
                            server.organizationId(),
                            "parameters",
                            params)),
                    Map.of(),
                    true);
            assertThat(response.status()).isEqualTo(400);
            assertThat(Json.parse(response).path("turnkeyErrorCode").asString()).isEqualTo("INVALID_TIME");
        }
        for (long at : List.of(now - 59 * 60_000L, now + 4 * 60_000L)) {
            KeyhavenClient.RawResponse response = root.post(
                    "/public/v1/submit/create_user_tag",
                    Json.bytes(Map.of(
                            "type",
                            "ACTIVITY_TYPE_CREATE_USER_TAG",
                            "timestampMs",
                            Long.toString(at),
                            "organizationId",
                            server.organizationId(),
                            "parameters",
                            Map.of("userTagName", "in " + at, "userIds", List.of()))),
                    Map.of(),
                    true);
            assertThat(response.status()).isEqualTo(200);
        }
    }

    private String submitError(String operation, Map<String, Object> body) {
        KeyhavenClient.RawResponse response =
                root.post("/public/v1/submit/" + operation, Json.bytes(body), Map.of(), true);
        assertThat(response.status()).isEqualTo(400);
        return Json.parse(response).path("message").asString();
    }

    @Test
    void activitiesAreListedNewestFirstWithFiltersAndStablePagination() {
        TestServer listing = TestServer.start(store);
        try {
            KeyhavenClient client = listing.rootClient();
            for (int i = 0; i < 7; i++) {
                client.createUserTag("tag-" + i, List.of());
            }
            List<JsonNode> all =
                    client.listActivities(null, List.of("ACTIVITY_TYPE_CREATE_USER_TAG"), "100", null, null);
            assertThat(all).hasSize(7);
            assertThat(all.getFirst()
                            .path("intent")
                            .path("createUserTagIntent")
                            .path("userTagName")
                            .asString())
                    .isEqualTo("tag-6");

            List<String> paged = new java.util.ArrayList<>();
            String after = null;
            while (true) {
                List<JsonNode> page = client.listActivities(null, null, "3", after, null);
                page.forEach(a -> paged.add(a.path("id").asString()));
                if (page.size() < 3) {
                    break;
                }
                after = page.getLast().path("id").asString();
            }
            assertThat(paged)
                    .containsExactlyElementsOf(
                            all.stream().map(a -> a.path("id").asString()).toList());

            List<JsonNode> before = client.listActivities(
                    null, null, "2", null, all.get(4).path("id").asString());
            assertThat(before)
                    .extracting(a -> a.path("id").asString())
                    .containsExactly(
                            all.get(2).path("id").asString(),
                            all.get(3).path("id").asString());
            assertThat(client.listActivities(List.of("ACTIVITY_STATUS_FAILED"), null, null, null, null))
                    .isEmpty();
            assertThat(client.listActivities(null, null, null, null, null)).hasSize(7);

            for (String limit : List.of("0", "101", "ten", "-1")) {
                apiError(
                        ErrorCode.BAD_REQUEST,
                        "paginationOptions.limit",
                        () -> client.listActivities(null, null, limit, null, null));
            }
            apiError(
                    ErrorCode.BAD_REQUEST,
                    "paginationOptions.after",
                    () -> client.listActivities(null, null, null, "01a1fcdd-0000-7000-8000-000000000000", null));
            apiError(
                    ErrorCode.BAD_REQUEST,
                    "filterByStatus[0]",
                    () -> client.listActivities(List.of("ACTIVITY_STATUS_BOGUS"), null, null, null, null));
        } finally {
            listing.close();
        }
    }

    @Test
    void getActivityReportsUnknownIdsAndMissingFields() {
        apiError(ErrorCode.NOT_FOUND, null, () -> root.getActivity("00000000-0000-7000-8000-000000000000"));
        KeyhavenApiException missing =
                apiError(ErrorCode.BAD_REQUEST, "activityId", () -> root.query("get_activity", Map.of()));
        assertThat(missing.serverMessage()).isEqualTo("bad request body: activityId is required");
        Activity created = root.createUserTag("fetch me", List.of());
        JsonNode fetched = root.getActivity(created.id());
        assertThat(fetched).isEqualTo(created.raw());
    }
}
