package dev.keyhaven.server.webhook;

import dev.keyhaven.policy.Value;
import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.activity.PolicyFacts;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.state.StateReads;
import java.util.Map;

/**
 * {@code redeliver_webhook_delivery} (a Keyhaven extension): queues a finished delivery of one of the organization's
 * endpoints again, with a fresh attempt budget and the same event id. It sends a signed request to a receiver, so
 * it is an activity like the endpoint changes: policies and consensus apply, it is recorded, and a read-only
 * session cannot submit it. Policies read {@code activity.params.delivery_id}.
 */
final class RedeliverWebhookDeliveryHandler implements ActivityHandler<String> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "redeliver_webhook_delivery",
            ActivityResource.WEBHOOK_ENDPOINT,
            ActivityAction.UPDATE,
            new ActivityVersion(
                    ActivityType.REDELIVER_WEBHOOK_DELIVERY,
                    "redeliverWebhookDeliveryIntent",
                    "redeliverWebhookDeliveryResult"));

    private final WebhookRepository webhooks;
    private final Runnable wake;

    /** @param wake tells the deliverer that a delivery is due (it may look before its next poll) */
    public RedeliverWebhookDeliveryHandler(WebhookRepository webhooks, Runnable wake) {
        this.webhooks = webhooks;
        this.wake = wake;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public String parse(Params p) {
        return p.requiredString("deliveryId");
    }

    @Override
    public PolicyFacts policyFacts(StateReads organization, String deliveryId) {
        return PolicyFacts.params(Map.of("delivery_id", Value.of(deliveryId)));
    }

    @Override
    public Object execute(ActivityContext context, String deliveryId) {
        WebhookDelivery delivery = webhooks.findDelivery(context.tx(), deliveryId)
                .filter(d -> webhooks.findEndpoint(context.tx(), context.organizationId(), d.endpointId())
                        .isPresent())
                .orElseThrow(() -> ApiException.notFound("no webhook delivery found with id " + deliveryId));
        if (delivery.status() == WebhookDelivery.Status.PENDING) {
            throw ApiException.badRequest("webhook delivery " + deliveryId + " is still pending");
        }
        webhooks.update(
                context.tx(),
                deliveryId,
                WebhookDelivery.Status.PENDING,
                0,
                context.now(),
                delivery.lastStatusCode(),
                delivery.lastError(),
                context.now());
        // Before the commit: a claim that runs first misses the row and the next poll finds it.
        wake.run();
        return new Result(WebhookViews.delivery(
                webhooks.findDelivery(context.tx(), deliveryId).orElseThrow()));
    }

    /** {@code redeliverWebhookDeliveryResult}: the delivery as queued again. */
    public record Result(WebhookViews.WireDelivery delivery) {}
}
