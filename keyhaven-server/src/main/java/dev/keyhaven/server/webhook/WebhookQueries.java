package dev.keyhaven.server.webhook;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.tx.Transactor;
import java.time.Clock;
import java.util.Map;

/**
 * {@code list_webhook_endpoints}, the JWKS, and two Keyhaven extensions for operators: {@code
 * list_webhook_deliveries} (an endpoint's recent deliveries with status, attempts and last error) and {@code
 * redeliver_webhook_delivery} (queues one again, with a fresh attempt budget).
 */
public final class WebhookQueries {
    static final int DEFAULT_DELIVERIES = 20;
    static final int MAX_DELIVERIES = 100;

    private final Transactor transactor;
    private final WebhookRepository repository;
    private final WebhookSigningKeys keys;
    private final Clock clock;
    private final Runnable wake;

    public WebhookQueries(Transactor transactor, WebhookRepository repository, WebhookSigningKeys keys, Clock clock,
            Runnable wake) {
        this.transactor = transactor;
        this.repository = repository;
        this.keys = keys;
        this.clock = clock;
        this.wake = wake;
    }

    /** {@code list_webhook_endpoints {organizationId}} → {@code {webhookEndpoints}}. */
    public Map<String, Object> listWebhookEndpoints(Caller caller, Params body) {
        return Map.of("webhookEndpoints", transactor.read(tx -> repository.endpoints(tx, caller.organizationId()))
                .stream().map(WebhookViews::endpoint).toList());
    }

    /** {@code list_webhook_deliveries {organizationId, endpointId, limit?}} → {@code {deliveries}}, newest first. */
    public Map<String, Object> listWebhookDeliveries(Caller caller, Params body) {
        String endpointId = body.requiredString("endpointId");
        int limit = body.optionalInt("limit").orElse(DEFAULT_DELIVERIES);
        if (limit < 1 || limit > MAX_DELIVERIES) {
            throw ApiException.badField(body.pathOf("limit"), "must be between 1 and " + MAX_DELIVERIES);
        }
        return Map.of("deliveries", transactor.read(tx -> {
            repository.findEndpoint(tx, caller.organizationId(), endpointId)
                    .orElseThrow(() -> ApiException.notFound("no webhook endpoint found with id " + endpointId));
            return repository.deliveries(tx, endpointId, limit);
        }).stream().map(WebhookViews::delivery).toList());
    }

    /** {@code redeliver_webhook_delivery {organizationId, deliveryId}} → {@code {delivery}}, queued again. */
    public Map<String, Object> redeliverWebhookDelivery(Caller caller, Params body) {
        String deliveryId = body.requiredString("deliveryId");
        WebhookDelivery queued = transactor.write(tx -> {
            WebhookDelivery delivery = repository.findDelivery(tx, deliveryId)
                    .filter(d -> repository.findEndpoint(tx, caller.organizationId(), d.endpointId()).isPresent())
                    .orElseThrow(() -> ApiException.notFound("no webhook delivery found with id " + deliveryId));
            if (delivery.status() == WebhookDelivery.Status.PENDING) {
                throw ApiException.badRequest("webhook delivery " + deliveryId + " is still pending");
            }
            var now = clock.instant();
            repository.update(tx, deliveryId, WebhookDelivery.Status.PENDING, 0, now, delivery.lastStatusCode(),
                    delivery.lastError(), now);
            return repository.findDelivery(tx, deliveryId).orElseThrow();
        });
        wake.run();
        return Map.of("delivery", WebhookViews.delivery(queued));
    }

    /** The JWKS of {@code GET /public/v1/discovery/webhooks/jwks}. */
    public Map<String, Object> jwks() {
        return keys.jwks();
    }
}
