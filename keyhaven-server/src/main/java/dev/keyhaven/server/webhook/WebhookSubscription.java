package dev.keyhaven.server.webhook;

import java.util.Optional;

/** One event type an endpoint receives ({@code v1WebhookSubscriptionParams}). */
public record WebhookSubscription(String eventType, Optional<String> filtersJson, boolean isActive) {

    /** The one event type Keyhaven emits: every status an activity is recorded with. */
    public static final String ACTIVITY_UPDATES = "ACTIVITY_UPDATES";
}
