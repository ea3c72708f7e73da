package dev.keyhaven.server.activity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.JsonMappers;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
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
        ObjectNode asString = new ActivityRenderer(JSON, TimestampStyle.STRING, Clock.systemUTC())
                .render(activity(ActivityStatus.COMPLETED, Optional.empty()));
        assertThat(asString.path("createdAt").asString()).isEqualTo("2026-11-21T10:15:30.123456Z");
        ObjectNode asObject = new ActivityRenderer(JSON, TimestampStyle.OBJECT, Clock.systemUTC())
                .render(activity(ActivityStatus.COMPLETED, Optional.empty()));
        assertThat(asObject.path("createdAt").path("seconds").asString())
                .isEqualTo(Long.toString(CREATED.getEpochSecond()));
        assertThat(asObject.path("createdAt").path("nanos").asString()).isEqualTo("123456000");
    }

    @Test
    void aFailureCarriesItsGrpcCodeMessageAndTurnkeyErrorCode() {
        ObjectNode out = new ActivityRenderer(JSON, TimestampStyle.STRING, Clock.systemUTC())
                .render(activity(
                        ActivityStatus.FAILED,
                        Optional.of(new Failure(ErrorCode.REQUEST_NOT_AUTHORIZED, "denied", false))));
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
        assertThat(renderer.render(activity(ActivityStatus.CONSENSUS_NEEDED, Optional.empty()))
                        .path("canApprove")
                        .asBoolean())
                .isTrue();
        assertThat(renderer.render(activity(ActivityStatus.COMPLETED, Optional.empty()))
                        .path("canReject")
                        .asBoolean())
                .isFalse();
        assertThat(renderer.render(activity(ActivityStatus.COMPLETED, Optional.empty()))
                        .has("failure"))
                .isFalse();
    }
}
