package dev.keyhaven.server.webhook;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Params;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** {@code create_webhook_endpoint}: a new endpoint with its subscriptions (at most {@value #MAX_ENDPOINTS}). */
final class CreateWebhookEndpointHandler implements ActivityHandler<CreateWebhookEndpointHandler.Intent> {
    /** Endpoints an organization may have: each one multiplies the organization's outbox writes. */
    static final int MAX_ENDPOINTS = 10;

    static final int MAX_NAME_LENGTH = 256;

    private static final ActivitySpec SPEC = ActivitySpec.of(
            "create_webhook_endpoint",
            ActivityResource.WEBHOOK_ENDPOINT,
            ActivityAction.CREATE,
            new ActivityVersion(
                    ActivityType.CREATE_WEBHOOK_ENDPOINT,
                    "createWebhookEndpointIntent",
                    "createWebhookEndpointResult"));

    private final WebhookRepository webhooks;
    private final WebhookUrls urls;

    public CreateWebhookEndpointHandler(WebhookRepository webhooks, WebhookUrls urls) {
        this.webhooks = webhooks;
        this.urls = urls;
    }

    /** The validated parameters. */
    public record Intent(String url, String name, List<WebhookSubscription> subscriptions) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        String url = urls.parse(p.pathOf("url"), p.requiredString("url")).toString();
        String name = name(p, p.requiredString("name"));
        List<WebhookSubscription> subscriptions = p.has("subscriptions")
                ? p.requiredObjects("subscriptions", CreateWebhookEndpointHandler::subscription)
                : List.of();
        Set<String> types = new HashSet<>();
        for (WebhookSubscription s : subscriptions) {
            if (!types.add(s.eventType())) {
                throw ApiException.badField(
                        p.pathOf("subscriptions"), "names event type " + s.eventType() + " more than once");
            }
        }
        return new Intent(url, name, subscriptions);
    }

    static String name(Params p, String name) {
        if (name.isBlank() || name.length() > MAX_NAME_LENGTH) {
            throw ApiException.badField(p.pathOf("name"), "must be 1 to " + MAX_NAME_LENGTH + " characters");
        }
        return name;
    }

    private static WebhookSubscription subscription(Params s) {
        String eventType = s.requiredString("eventType");
        if (!eventType.equals(WebhookSubscription.ACTIVITY_UPDATES)) {
            throw ApiException.badField(
                    s.pathOf("eventType"),
                    "event type '" + eventType + "' is not supported " + "(Keyhaven emits "
                            + WebhookSubscription.ACTIVITY_UPDATES + ")");
        }
        Optional<String> filters = s.optionalString("filtersJson").filter(f -> !f.isBlank() && !f.equals("{}"));
        if (filters.isPresent()) {
            throw ApiException.badField(
                    s.pathOf("filtersJson"),
                    "filters are not supported: send none (every " + "event of the type is delivered)");
        }
        return new WebhookSubscription(eventType, Optional.empty(), s.optionalBoolean("isActive", true));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        String org = context.organizationId();
        if (webhooks.endpoints(context.tx(), org).size() >= MAX_ENDPOINTS) {
            throw new ApiException(
                    ErrorCode.LIMIT_EXCEEDED,
                    "organization has reached the maximum of " + MAX_ENDPOINTS + " webhook endpoints");
        }
        WebhookEndpoint endpoint = new WebhookEndpoint(
                context.ids().next(),
                org,
                intent.url(),
                intent.name(),
                true,
                intent.subscriptions(),
                context.now(),
                context.now());
        webhooks.insertEndpoint(context.tx(), endpoint);
        return WebhookEndpointResult.of(endpoint);
    }
}
