package dev.keyhaven.server.activity;

import static dev.keyhaven.server.testing.ApiErrors.isError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.JsonMappers;
import dev.keyhaven.server.api.Params;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class SubmitEnvelopeTest {
    private static final Instant NOW = Instant.parse("2026-11-21T12:00:00Z");

    private static final ActivityHandler<Object> HANDLER = new ActivityHandler<>() {
        @Override
        public ActivitySpec spec() {
            return ActivitySpec.of(
                    "create_users",
                    ActivityResource.USER,
                    ActivityAction.CREATE,
                    new ActivityVersion(ActivityType.CREATE_USERS_V4, "createUsersIntentV4", "createUsersResult"),
                    new ActivityVersion(ActivityType.CREATE_USERS_V3, "createUsersIntentV3", "createUsersResult"));
        }

        @Override
        public Object parse(Params parameters) {
            return parameters;
        }

        @Override
        public Object execute(ActivityContext context, Object params) {
            return params;
        }
    };

    private static SubmitEnvelope read(String type, Instant at) {
        String json = "{\"type\":\"" + type + "\",\"timestampMs\":\"" + at.toEpochMilli()
                + "\",\"organizationId\":\"org\",\"parameters\":{\"users\":[]}}";
        return SubmitEnvelope.read(Params.of(JsonMappers.strict().readTree(json), ""), HANDLER, NOW);
    }

    @Test
    void acceptsEveryVersionTheHandlerDeclares() {
        assertThat(read("ACTIVITY_TYPE_CREATE_USERS_V4", NOW).version().intentKey())
                .isEqualTo("createUsersIntentV4");
        assertThat(read("ACTIVITY_TYPE_CREATE_USERS_V3", NOW).version().intentKey())
                .isEqualTo("createUsersIntentV3");
    }

    @Test
    void rejectsATypeOfAnotherOperation() {
        assertThatThrownBy(() -> read("ACTIVITY_TYPE_DELETE_USERS", NOW))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, "type"))
                .hasMessage("bad request body: type 'ACTIVITY_TYPE_DELETE_USERS' does not match operation create_users"
                        + " (accepted: ACTIVITY_TYPE_CREATE_USERS_V4, ACTIVITY_TYPE_CREATE_USERS_V3)");
    }

    @Test
    void rejectsAVersionOfTheOperationItDoesNotAcceptListingTheAcceptedOnes() {
        assertThatThrownBy(() -> read("ACTIVITY_TYPE_CREATE_USERS_V2", NOW))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, "type"))
                .hasMessage("bad request body: type 'ACTIVITY_TYPE_CREATE_USERS_V2' is a version of create_users that"
                        + " Keyhaven does not accept (accepted: ACTIVITY_TYPE_CREATE_USERS_V4,"
                        + " ACTIVITY_TYPE_CREATE_USERS_V3)");
    }

    @Test
    void theLivenessWindowIsOneHourBackAndFiveMinutesAhead() {
        assertThat(read("ACTIVITY_TYPE_CREATE_USERS_V4", NOW.minus(Duration.ofHours(1)))
                        .timestamp())
                .isEqualTo(NOW.minus(Duration.ofHours(1)));
        assertThat(read("ACTIVITY_TYPE_CREATE_USERS_V4", NOW.plus(Duration.ofMinutes(5)))
                        .timestamp())
                .isEqualTo(NOW.plus(Duration.ofMinutes(5)));
        for (Instant outside : List.of(
                NOW.minus(Duration.ofHours(1)).minusMillis(1),
                NOW.plus(Duration.ofMinutes(5)).plusMillis(1))) {
            assertThatThrownBy(() -> read("ACTIVITY_TYPE_CREATE_USERS_V4", outside))
                    .isInstanceOfSatisfying(
                            ApiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_TIME));
        }
    }
}
