/**
 * Webhooks: endpoints and their subscriptions (the three activities and the queries), the outbox written in the
 * transaction of every activity status change ({@link dev.keyhaven.server.webhook.WebhookOutbox}, an
 * {@code activity.ActivityEvents}), the Ed25519 signing keys and their JWKS, the URL rules that keep deliveries off
 * private networks, and the background deliverer (claims, signed POSTs, retries).
 */
package dev.keyhaven.server.webhook;
