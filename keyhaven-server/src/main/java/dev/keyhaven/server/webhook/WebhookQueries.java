package dev.keyhaven.server.webhook;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.tx.Transactor;
import java.util.Map;

/**
 * {@code list_webhook_endpoints}, the JWKS, and a Keyhaven extension for operators: {@code list_webhook_deliveries}
 * (an endpoint's recent deliveries with status, attempts and last error). Queuing one again writes, so it is an
 * activity ({@link RedeliverWebhookDeliveryHandler}), not a query.
 */
public final class WebhookQueries {
    static final int DEFAULT_DELIVERIES = 20;
    static final int MAX_DELIVERIES = 100;

    private final Transactor transactor;
    private final WebhookRepository repository;
    private final WebhookSigningKeys keys;

    public WebhookQueries(Transactor transactor, WebhookRepository repository, WebhookSigningKeys keys) {
        this.transactor = transactor;
        this.repository = repository;
        this.keys = keys;
    }

    /** {@code list_webhook_endpoints {organizationId}} → {@code {webhookEndpoints}}. */
    public Map<String, Object> listWebhookEndpoints(Caller caller, Params body) {
        return Map.of(
                "webhookEndpoints",
                transactor.read(tx -> repository.endpoints(tx, caller.organizationId())).stream()
                        .map(WebhookViews::endpoint)
                        .toList());
    }

    /** {@code list_webhook_deliveries {organizationId, endpointId, limit?}} → {@code {deliveries}}, newest first. */
    public Map<String, Object> listWebhookDeliveries(Caller caller, Params body) {
        String endpointId = body.requiredString("endpointId");
        int limit = body.optionalInt("limit").orElse(DEFAULT_DELIVERIES);
        if (limit < 1 || limit > MAX_DELIVERIES) {
            throw ApiException.badField(body.pathOf("limit"), "must be between 1 and " + MAX_DELIVERIES);
        }
        return Map.of(
                "deliveries",
                transactor
                        .read(tx -> {
                            if (repository
                                    .findEndpoint(tx, caller.organizationId(), endpointId)
                                    .isEmpty()) {
                                throw ApiException.notFound("no webhook endpoint found with id " + endpointId);
                            }
                            return repository.deliveries(tx, endpointId, limit);
                        })
                        .stream()
                        .map(WebhookViews::delivery)
                        .toList());
    }

    /** The JWKS of {@code GET /public/v1/discovery/webhooks/jwks}. */
    public Map<String, Object> jwks() {
        return keys.jwks();
    }
}
