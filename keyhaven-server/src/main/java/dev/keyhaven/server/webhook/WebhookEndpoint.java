package dev.keyhaven.server.webhook;

import java.time.Instant;
import java.util.List;

/** A webhook endpoint of an organization. */
public record WebhookEndpoint(
        String id,
        String organizationId,
        String url,
        String name,
        boolean isActive,
        List<WebhookSubscription> subscriptions,
        Instant createdAt,
        Instant updatedAt) {

    public WebhookEndpoint {
        subscriptions = List.copyOf(subscriptions);
    }

    /** Whether deliveries of {@code eventType} go to this endpoint now. */
    public boolean receives(String eventType) {
        return isActive
                && subscriptions.stream()
                        .anyMatch(s -> s.isActive() && s.eventType().equals(eventType));
    }

    WebhookEndpoint with(String newUrl, String newName, boolean active, Instant now) {
        return new WebhookEndpoint(id, organizationId, newUrl, newName, active, subscriptions, createdAt, now);
    }
}
