package dev.keyhaven.server.webhook;

import java.time.Instant;
import java.util.Optional;

/**
 * One event for one endpoint: the outbox row and its delivery state. {@code body} is the exact JSON sent (and
 * signed) on every attempt; {@code eventId} stays the same across attempts.
 */
public record WebhookDelivery(
        String id,
        String eventId,
        String endpointId,
        String organizationId,
        String eventType,
        String body,
        Status status,
        int attempts,
        Instant nextAttemptAt,
        Optional<Integer> lastStatusCode,
        Optional<String> lastError,
        Instant createdAt,
        Instant updatedAt) {

    /** Where a delivery stands. */
    public enum Status {
        /** Waiting for its next attempt (or being attempted). */
        PENDING,
        /** The endpoint answered 2xx. */
        DELIVERED,
        /** A terminal answer, the last allowed attempt failed, or the endpoint is gone or inactive. */
        FAILED
    }

    @Override
    public String toString() {
        return "WebhookDelivery[" + id + ", event " + eventId + ", endpoint " + endpointId + ", " + status + ", "
                + attempts + " attempts]";
    }
}
