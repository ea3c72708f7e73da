package dev.keyhaven.server.webhook;

/** {@code createWebhookEndpointResult} and {@code updateWebhookEndpointResult}. */
public record WebhookEndpointResult(String endpointId, WebhookViews.WireEndpoint webhookEndpoint) {

    static WebhookEndpointResult of(WebhookEndpoint endpoint) {
        return new WebhookEndpointResult(endpoint.id(), WebhookViews.endpoint(endpoint));
    }
}
