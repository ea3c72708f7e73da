package dev.keyhaven.server.webhook;

import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** Storage of endpoints, the delivery outbox and the signing keys (implemented by the store). */
public interface WebhookRepository {

    void insertEndpoint(Tx tx, WebhookEndpoint endpoint);

    void updateEndpoint(Tx tx, WebhookEndpoint endpoint);

    void deleteEndpoint(Tx tx, String organizationId, String endpointId);

    Optional<WebhookEndpoint> findEndpoint(Tx tx, String organizationId, String endpointId);

    /** Any organization's endpoint (the deliverer's lookup). */
    Optional<WebhookEndpoint> findEndpoint(Tx tx, String endpointId);

    /** The organization's endpoints in id order. */
    List<WebhookEndpoint> endpoints(Tx tx, String organizationId);

    /** The organization's parent, for a sub-organization. */
    Optional<String> parentOrganization(Tx tx, String organizationId);

    void insertDeliveries(Tx tx, List<WebhookDelivery> deliveries);

    /**
     * Takes up to {@code limit} pending deliveries due at {@code now}, of endpoints other than {@code
     * skipEndpoints}, that no other transaction holds (PostgreSQL: {@code FOR UPDATE SKIP LOCKED}) and moves their
     * next attempt to {@code leaseUntil}, so no other server takes them while they are being attempted.
     */
    List<WebhookDelivery> claimDue(Tx tx, Instant now, Instant leaseUntil, int limit, Collection<String> skipEndpoints);

    /** Records the outcome of an attempt (or the release of a claim without an attempt). */
    void update(
            Tx tx,
            String deliveryId,
            WebhookDelivery.Status status,
            int attempts,
            Instant nextAttemptAt,
            Optional<Integer> lastStatusCode,
            Optional<String> lastError,
            Instant now);

    /** The endpoint's deliveries, newest first. */
    List<WebhookDelivery> deliveries(Tx tx, String endpointId, int limit);

    Optional<WebhookDelivery> findDelivery(Tx tx, String deliveryId);

    List<WebhookSigningKey> signingKeys(Tx tx);

    void insertSigningKey(Tx tx, WebhookSigningKey key);

    /** Retires every key still signing. */
    void retireSigningKeys(Tx tx, Instant at);
}
