package dev.keyhaven.server.webhook;

import java.util.List;
import java.util.Optional;

/** Wire forms: {@code v1WebhookEndpointData}, {@code v1WebhookSubscriptionParams}, and the delivery records. */
public final class WebhookViews {
    private WebhookViews() {}

    /** {@code v1WebhookEndpointData}. */
    public record WireEndpoint(
            String endpointId,
            String organizationId,
            String url,
            String name,
            boolean isActive,
            List<WireSubscription> subscriptions) {}

    /** {@code v1WebhookSubscriptionParams}. */
    public record WireSubscription(String eventType, Optional<String> filtersJson, boolean isActive) {}

    /** A delivery as {@code list_webhook_deliveries} shows it (a Keyhaven extension). */
    public record WireDelivery(
            String deliveryId,
            String eventId,
            String endpointId,
            String organizationId,
            String eventType,
            String status,
            int attempts,
            Optional<Integer> lastStatusCode,
            Optional<String> lastError,
            Optional<String> nextAttemptAt,
            String createdAt,
            String updatedAt) {}

    public static WireEndpoint endpoint(WebhookEndpoint e) {
        return new WireEndpoint(
                e.id(),
                e.organizationId(),
                e.url(),
                e.name(),
                e.isActive(),
                e.subscriptions().stream()
                        .map(s -> new WireSubscription(s.eventType(), s.filtersJson(), s.isActive()))
                        .toList());
    }

    public static WireDelivery delivery(WebhookDelivery d) {
        return new WireDelivery(
                d.id(),
                d.eventId(),
                d.endpointId(),
                d.organizationId(),
                d.eventType(),
                d.status().name(),
                d.attempts(),
                d.lastStatusCode(),
                d.lastError(),
                d.status() == WebhookDelivery.Status.PENDING
                        ? Optional.of(d.nextAttemptAt().toString())
                        : Optional.empty(),
                d.createdAt().toString(),
                d.updatedAt().toString());
    }
}
