package dev.keyhaven.client;

import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * An activity as the API returns it. {@code result} is the member of {@code result} named by the operation's
 * result key (missing until the activity completes); {@code raw} is the whole activity object.
 */
public record Activity(
        String id,
        String organizationId,
        String status,
        String type,
        String fingerprint,
        JsonNode result,
        Optional<Failure> failure,
        int voteCount,
        JsonNode raw) {

    public boolean isCompleted() {
        return "ACTIVITY_STATUS_COMPLETED".equals(status);
    }

    /** Why an activity failed. */
    public record Failure(int code, String message) {}

    static Activity of(JsonNode activity, String resultKey) {
        JsonNode failure = activity.get("failure");
        return new Activity(
                activity.path("id").asString(),
                activity.path("organizationId").asString(),
                activity.path("status").asString(),
                activity.path("type").asString(),
                activity.path("fingerprint").asString(),
                activity.path("result").path(resultKey),
                failure == null || failure.isNull()
                        ? Optional.empty()
                        : Optional.of(new Failure(
                                failure.path("code").asInt(),
                                failure.path("message").asString())),
                activity.path("votes").size(),
                activity);
    }
}
