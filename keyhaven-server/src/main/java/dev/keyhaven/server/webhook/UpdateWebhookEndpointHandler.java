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
import java.util.Optional;

/** {@code update_webhook_endpoint}: changes an endpoint's URL, name or whether it is active. */
final class UpdateWebhookEndpointHandler implements ActivityHandler<UpdateWebhookEndpointHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "update_webhook_endpoint",
            ActivityResource.WEBHOOK_ENDPOINT,
            ActivityAction.UPDATE,
            new ActivityVersion(
                    ActivityType.UPDATE_WEBHOOK_ENDPOINT,
                    "updateWebhookEndpointIntent",
                    "updateWebhookEndpointResult"));

    private final WebhookRepository webhooks;
    private final WebhookUrls urls;

    public UpdateWebhookEndpointHandler(WebhookRepository webhooks, WebhookUrls urls) {
        this.webhooks = webhooks;
        this.urls = urls;
    }

    /** The validated parameters; an absent field is left as it is. */
    public record Intent(String endpointId, Optional<String> url, Optional<String> name, Optional<Boolean> isActive) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        Optional<String> url =
                p.optionalString("url").map(u -> urls.parse(p.pathOf("url"), u).toString());
        Optional<String> name = p.optionalString("name").map(n -> CreateWebhookEndpointHandler.name(p, n));
        Optional<Boolean> active =
                p.has("isActive") ? Optional.of(p.optionalBoolean("isActive", true)) : Optional.empty();
        return new Intent(p.requiredString("endpointId"), url, name, active);
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        WebhookEndpoint current = webhooks.findEndpoint(context.tx(), context.organizationId(), intent.endpointId())
                .orElseThrow(() -> ApiException.notFound("no webhook endpoint found with id " + intent.endpointId()));
        WebhookEndpoint updated = current.with(
                intent.url().orElse(current.url()),
                intent.name().orElse(current.name()),
                intent.isActive().orElse(current.isActive()),
                context.now());
        webhooks.updateEndpoint(context.tx(), updated);
        return WebhookEndpointResult.of(updated);
    }
}
