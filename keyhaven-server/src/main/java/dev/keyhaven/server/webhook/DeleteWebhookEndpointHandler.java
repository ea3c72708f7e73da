package dev.keyhaven.server.webhook;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;

/**
 * {@code delete_webhook_endpoint}. Deliveries still pending for the endpoint are not attempted any more (the
 * deliverer marks them failed when it finds the endpoint gone).
 */
final class DeleteWebhookEndpointHandler implements ActivityHandler<String> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "delete_webhook_endpoint",
            ActivityResource.WEBHOOK_ENDPOINT,
            ActivityAction.DELETE,
            new ActivityVersion(
                    ActivityType.DELETE_WEBHOOK_ENDPOINT,
                    "deleteWebhookEndpointIntent",
                    "deleteWebhookEndpointResult"));

    private final WebhookRepository webhooks;

    public DeleteWebhookEndpointHandler(WebhookRepository webhooks) {
        this.webhooks = webhooks;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public String parse(Params p) {
        return p.requiredString("endpointId");
    }

    @Override
    public Object execute(ActivityContext context, String endpointId) {
        if (webhooks.findEndpoint(context.tx(), context.organizationId(), endpointId)
                .isEmpty()) {
            throw ApiException.notFound("no webhook endpoint found with id " + endpointId);
        }
        webhooks.deleteEndpoint(context.tx(), context.organizationId(), endpointId);
        return new Result(endpointId);
    }

    /** {@code deleteWebhookEndpointResult}. */
    public record Result(String endpointId) {}
}
