package dev.keyhaven.server.webhook;

import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityRenderer;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.state.OrganizationStates;
import dev.keyhaven.server.tx.Transactor;
import java.time.Clock;
import java.util.List;
import java.util.random.RandomGenerator;
import tools.jackson.databind.ObjectMapper;

/**
 * Webhooks assembled: the endpoint activities and queries, the signing keys, the deliverer (started by
 * {@code serve}, closed with the application), and the outbox the activity engine records events in.
 */
public final class WebhookFeature {
    private final Transactor transactor;
    private final WebhookRepository webhooks;
    private final Clock clock;
    private final Ids ids;
    private final WebhookSigningKeys keys;
    private final WebhookDeliverer deliverer;
    private final WebhookQueries queries;
    private final List<ActivityHandler<?>> handlers;

    public WebhookFeature(
            Transactor transactor,
            WebhookRepository webhooks,
            Custody custody,
            WebhookSettings settings,
            Clock clock,
            Ids ids,
            RandomGenerator random) {
        this.transactor = transactor;
        this.webhooks = webhooks;
        this.clock = clock;
        this.ids = ids;
        WebhookUrls urls = new WebhookUrls(settings.allowInsecureUrls());
        this.keys = new WebhookSigningKeys(transactor, webhooks, custody, settings, clock, ids);
        this.deliverer = new WebhookDeliverer(transactor, webhooks, keys, urls, settings, clock, random);
        this.queries = new WebhookQueries(transactor, webhooks, keys);
        this.handlers = List.of(
                new CreateWebhookEndpointHandler(webhooks, urls),
                new UpdateWebhookEndpointHandler(webhooks, urls),
                new DeleteWebhookEndpointHandler(webhooks),
                new RedeliverWebhookDeliveryHandler(webhooks, deliverer::wake));
    }

    public List<ActivityHandler<?>> handlers() {
        return handlers;
    }

    /** The outbox finished activities are recorded in; it wakes the deliverer when it has something due. */
    public WebhookOutbox outbox(OrganizationStates states, ActivityRenderer renderer, ObjectMapper json) {
        return new WebhookOutbox(transactor, states, webhooks, renderer, json, clock, ids, deliverer::wake);
    }

    public WebhookSigningKeys keys() {
        return keys;
    }

    public WebhookDeliverer deliverer() {
        return deliverer;
    }

    public WebhookQueries queries() {
        return queries;
    }
}
