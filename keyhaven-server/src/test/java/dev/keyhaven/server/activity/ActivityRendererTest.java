package dev.keyhaven.server.activity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.JsonMappers;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JacksonSerializable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

class ActivityRendererTest {
    private static final ObjectMapper JSON = JsonMappers.strict();
    private static final Instant CREATED = Instant.parse("2026-11-21T10:15:30.123456Z");

    private static Activity activity(ActivityStatus status, Optional<Failure> failure) {
        ObjectNode intent = JSON.createObjectNode();
        intent.putObject("deleteUsersIntent").putArray("userIds").add("u1");
        return new Activity(
                "a1",
                "o1",
                ActivityType.DELETE_USERS,
                status,
                intent,
                JSON.createObjectNode(),
                failure,
                "f".repeat(64),
                List.of(),
                CREATED,
                CREATED);
    }

    @Test
    void timestampsAreRfc3339StringsByDefaultAndObjectsOnRequest() {
        JsonNode asString = JSON.valueToTree(new ActivityRenderer(JSON, TimestampStyle.STRING, Clock.systemUTC())
                .render(activity(ActivityStatus.COMPLETED, Optional.empty())));
        assertThat(asString.path("createdAt").asString()).isEqualTo("2026-11-21T10:15:30.123456Z");
        JsonNode asObject = JSON.valueToTree(new ActivityRenderer(JSON, TimestampStyle.OBJECT, Clock.systemUTC())
                .render(activity(ActivityStatus.COMPLETED, Optional.empty())));
        assertThat(asObject.path("createdAt").path("seconds").asString())
                .isEqualTo(Long.toString(CREATED.getEpochSecond()));
        assertThat(asObject.path("createdAt").path("nanos").asString()).isEqualTo("123456000");
    }

    @Test
    void aFailureCarriesItsGrpcCodeMessageAndTurnkeyErrorCode() {
        JsonNode out = JSON.valueToTree(new ActivityRenderer(JSON, TimestampStyle.STRING, Clock.systemUTC())
                .render(activity(
                        ActivityStatus.FAILED,
                        Optional.of(new Failure(ErrorCode.REQUEST_NOT_AUTHORIZED, "denied", false)))));
        assertThat(out.path("failure").path("code").asInt()).isEqualTo(7);
        assertThat(out.path("failure").path("message").asString()).isEqualTo("denied");
        assertThat(out.path("failure")
                        .path("details")
                        .get(0)
                        .path("turnkeyErrorCode")
                        .asString())
                .isEqualTo("REQUEST_NOT_AUTHORIZED");
        assertThat(out.path("status").asString()).isEqualTo("ACTIVITY_STATUS_FAILED");
    }

    @Test
    void onlyAnActivityWaitingForConsensusCanBeApprovedOrRejected() {
        ActivityRenderer renderer = new ActivityRenderer(JSON, TimestampStyle.STRING, Clock.systemUTC());
        assertThat(tree(renderer.render(activity(ActivityStatus.CONSENSUS_NEEDED, Optional.empty())))
                        .path("canApprove")
                        .asBoolean())
                .isTrue();
        assertThat(tree(renderer.render(activity(ActivityStatus.COMPLETED, Optional.empty())))
                        .path("canReject")
                        .asBoolean())
                .isFalse();
        assertThat(tree(renderer.render(activity(ActivityStatus.COMPLETED, Optional.empty())))
                        .has("failure"))
                .isFalse();
    }

    @Test
    void theAnswerOfASubmissionIsTheWholeActivityInTheWireOrder() {
        Vote vote = new Vote(
                "v1",
                "a1",
                "u1",
                JSON.createObjectNode().put("userId", "u1"),
                VoteSelection.APPROVED,
                "m",
                "02ab",
                "3045",
                "SIGNATURE_SCHEME_TK_API_P256",
                CREATED,
                Optional.empty());
        Activity failed = new Activity(
                "a1",
                "o1",
                ActivityType.DELETE_USERS,
                ActivityStatus.FAILED,
                JSON.createObjectNode().put("k", "v"),
                null,
                Optional.of(new Failure(ErrorCode.REQUEST_NOT_AUTHORIZED, "denied", false)),
                "f1",
                List.of(vote),
                CREATED,
                CREATED,
                List.of(new AppProof(AppProof.EPHEMERAL_KEY_P256, "04cd", "{}", "30ef")));
        String time = "\"2026-11-21T10:15:30.123456Z\"";
        String voteJson = "{\"id\":\"v1\",\"userId\":\"u1\",\"user\":{\"userId\":\"u1\"},\"activityId\":\"a1\","
                + "\"selection\":\"VOTE_SELECTION_APPROVED\",\"message\":\"m\",\"publicKey\":\"02ab\","
                + "\"signature\":\"3045\",\"scheme\":\"SIGNATURE_SCHEME_TK_API_P256\",\"createdAt\":" + time + "}";
        String expected =
                "{\"activity\":{\"id\":\"a1\",\"organizationId\":\"o1\",\"status\":\"ACTIVITY_STATUS_FAILED\","
                        + "\"type\":\"ACTIVITY_TYPE_DELETE_USERS\",\"intent\":{\"k\":\"v\"},\"result\":null,\"votes\":["
                        + voteJson + "],\"fingerprint\":\"f1\",\"canApprove\":false,\"canReject\":false,\"createdAt\":"
                        + time
                        + ",\"updatedAt\":" + time
                        + ",\"appProofs\":[{\"scheme\":\"SIGNATURE_SCHEME_EPHEMERAL_KEY_P256\","
                        + "\"publicKey\":\"04cd\",\"proofPayload\":\"{}\",\"signature\":\"30ef\"}],\"failure\":{\"code\":7,"
                        + "\"message\":\"denied\",\"details\":[{\"@type\":\"type.googleapis.com/errors.v1.TurnkeyErrorDetail\","
                        + "\"turnkeyErrorCode\":\"REQUEST_NOT_AUTHORIZED\"}]}}}";
        ActivityRenderer renderer = new ActivityRenderer(JSON, TimestampStyle.STRING, Clock.systemUTC());

        assertThat(JSON.writeValueAsString(renderer.response(failed, "u1"))).isEqualTo(expected);
        // The tree made of it (get_activity's callers, webhooks) says the same.
        assertThat(JSON.writeValueAsString(tree(renderer.response(failed, "u1"))))
                .isEqualTo(expected);
    }

    private static JsonNode tree(JacksonSerializable rendered) {
        return JSON.valueToTree(rendered);
    }
}
