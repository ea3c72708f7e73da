package dev.keyhaven.server.store;

import dev.keyhaven.server.custody.SealedSecret;
import dev.keyhaven.server.tx.Tx;
import dev.keyhaven.server.webhook.WebhookDelivery;
import dev.keyhaven.server.webhook.WebhookEndpoint;
import dev.keyhaven.server.webhook.WebhookRepository;
import dev.keyhaven.server.webhook.WebhookSigningKey;
import dev.keyhaven.server.webhook.WebhookSubscription;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/** Webhook endpoints, the delivery outbox and the webhook signing keys. */
public final class JdbcWebhookRepository implements WebhookRepository {
    private static final String ENDPOINT_COLUMNS =
            "id, organization_id, url, name, is_active, subscriptions, " + "created_at, updated_at";
    private static final String DELIVERY_COLUMNS = "id, event_id, endpoint_id, organization_id, event_type, body, "
            + "status, attempts, next_attempt_at, last_status_code, last_error, created_at, updated_at";

    private final ObjectMapper json;

    public JdbcWebhookRepository(ObjectMapper json) {
        this.json = json;
    }

    @Override
    public void insertEndpoint(Tx tx, WebhookEndpoint e) {
        Sql.update(
                tx,
                "INSERT INTO webhook_endpoints (" + ENDPOINT_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                e.id(),
                e.organizationId(),
                e.url(),
                e.name(),
                e.isActive(),
                subscriptionsJson(e),
                e.createdAt(),
                e.updatedAt());
    }

    @Override
    public void updateEndpoint(Tx tx, WebhookEndpoint e) {
        Sql.update(
                tx,
                "UPDATE webhook_endpoints SET url = ?, name = ?, is_active = ?, subscriptions = ?, "
                        + "updated_at = ? WHERE organization_id = ? AND id = ?",
                e.url(),
                e.name(),
                e.isActive(),
                subscriptionsJson(e),
                e.updatedAt(),
                e.organizationId(),
                e.id());
    }

    @Override
    public void deleteEndpoint(Tx tx, String organizationId, String endpointId) {
        Sql.update(
                tx, "DELETE FROM webhook_endpoints WHERE organization_id = ? AND id = ?", organizationId, endpointId);
    }

    @Override
    public Optional<WebhookEndpoint> findEndpoint(Tx tx, String organizationId, String endpointId) {
        return Sql.one(
                tx,
                "SELECT " + ENDPOINT_COLUMNS + " FROM webhook_endpoints WHERE organization_id = ? AND " + "id = ?",
                this::endpoint,
                organizationId,
                endpointId);
    }

    @Override
    public Optional<WebhookEndpoint> findEndpoint(Tx tx, String endpointId) {
        return Sql.one(
                tx, "SELECT " + ENDPOINT_COLUMNS + " FROM webhook_endpoints WHERE id = ?", this::endpoint, endpointId);
    }

    @Override
    public List<WebhookEndpoint> endpoints(Tx tx, String organizationId) {
        return Sql.list(
                tx,
                "SELECT " + ENDPOINT_COLUMNS + " FROM webhook_endpoints WHERE organization_id = ? " + "ORDER BY id",
                this::endpoint,
                organizationId);
    }

    @Override
    public Optional<String> parentOrganization(Tx tx, String organizationId) {
        return Sql.one(
                        tx,
                        "SELECT parent_id FROM organizations WHERE id = ?",
                        rs -> Optional.ofNullable(rs.getString(1)),
                        organizationId)
                .flatMap(parent -> parent);
    }

    @Override
    public void insertDeliveries(Tx tx, List<WebhookDelivery> deliveries) {
        if (deliveries.isEmpty()) {
            return;
        }
        String row = "(" + Sql.placeholders(13) + ")";
        List<Object> args = new ArrayList<>();
        for (WebhookDelivery d : deliveries) {
            args.addAll(List.of(
                    d.id(),
                    d.eventId(),
                    d.endpointId(),
                    d.organizationId(),
                    d.eventType(),
                    d.body(),
                    d.status().name(),
                    d.attempts(),
                    d.nextAttemptAt(),
                    d.lastStatusCode(),
                    d.lastError(),
                    d.createdAt(),
                    d.updatedAt()));
        }
        Sql.update(
                tx,
                "INSERT INTO webhook_deliveries (" + DELIVERY_COLUMNS + ") VALUES "
                        + String.join(", ", java.util.Collections.nCopies(deliveries.size(), row)),
                args.toArray());
    }

    @Override
    public List<WebhookDelivery> claimDue(
            Tx tx, Instant now, Instant leaseUntil, int limit, Collection<String> skipEndpoints) {
        List<Object> filter = new ArrayList<>(List.of(now));
        filter.addAll(skipEndpoints);
        filter.add(limit);
        List<WebhookDelivery> due = Sql.list(
                tx,
                "SELECT " + DELIVERY_COLUMNS + " FROM webhook_deliveries WHERE "
                        + "status = 'PENDING' AND next_attempt_at <= ?"
                        + (skipEndpoints.isEmpty()
                                ? ""
                                : " AND endpoint_id NOT IN (" + Sql.placeholders(skipEndpoints.size()) + ")")
                        + " ORDER BY next_attempt_at LIMIT ?"
                        + JdbcTx.of(tx).dialect().skipLocked(),
                JdbcWebhookRepository::delivery,
                filter.toArray());
        if (!due.isEmpty()) {
            List<Object> args = new ArrayList<>(List.of(leaseUntil));
            due.forEach(d -> args.add(d.id()));
            Sql.update(
                    tx,
                    "UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id IN (" + Sql.placeholders(due.size())
                            + ")",
                    args.toArray());
        }
        return due;
    }

    @Override
    public void update(
            Tx tx,
            String deliveryId,
            WebhookDelivery.Status status,
            int attempts,
            Instant nextAttemptAt,
            Optional<Integer> lastStatusCode,
            Optional<String> lastError,
            Instant now) {
        Sql.update(
                tx,
                "UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_at = ?, "
                        + "last_status_code = ?, last_error = ?, updated_at = ? WHERE id = ?",
                status.name(),
                attempts,
                nextAttemptAt,
                lastStatusCode,
                lastError,
                now,
                deliveryId);
    }

    @Override
    public List<WebhookDelivery> deliveries(Tx tx, String endpointId, int limit) {
        return Sql.list(
                tx,
                "SELECT " + DELIVERY_COLUMNS + " FROM webhook_deliveries WHERE endpoint_id = ? "
                        + "ORDER BY id DESC LIMIT ?",
                JdbcWebhookRepository::delivery,
                endpointId,
                limit);
    }

    @Override
    public Optional<WebhookDelivery> findDelivery(Tx tx, String deliveryId) {
        return Sql.one(
                tx,
                "SELECT " + DELIVERY_COLUMNS + " FROM webhook_deliveries WHERE id = ?",
                JdbcWebhookRepository::delivery,
                deliveryId);
    }

    @Override
    public List<WebhookSigningKey> signingKeys(Tx tx) {
        return Sql.list(
                tx,
                "SELECT id, public_key, key_sealed, created_at, retired_at FROM webhook_signing_keys "
                        + "ORDER BY created_at",
                rs -> new WebhookSigningKey(
                        rs.getString("id"),
                        rs.getString("public_key"),
                        new SealedSecret(rs.getString("key_sealed")),
                        Sql.instant(rs, "created_at"),
                        Sql.optionalInstant(rs, "retired_at")));
    }

    @Override
    public void insertSigningKey(Tx tx, WebhookSigningKey key) {
        Sql.update(
                tx,
                "INSERT INTO webhook_signing_keys (id, public_key, key_sealed, created_at, retired_at) "
                        + "VALUES (?, ?, ?, ?, ?)",
                key.keyId(),
                key.publicKeyHex(),
                key.sealedKey().base64(),
                key.createdAt(),
                key.retiredAt());
    }

    @Override
    public void retireSigningKeys(Tx tx, Instant at) {
        Sql.update(tx, "UPDATE webhook_signing_keys SET retired_at = ? WHERE retired_at IS NULL", at);
    }

    private String subscriptionsJson(WebhookEndpoint e) {
        List<Map<String, Object>> list = e.subscriptions().stream()
                .map(s -> {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("eventType", s.eventType());
                    s.filtersJson().ifPresent(f -> m.put("filtersJson", f));
                    m.put("isActive", s.isActive());
                    return m;
                })
                .toList();
        return json.writeValueAsString(list);
    }

    private WebhookEndpoint endpoint(ResultSet rs) throws SQLException {
        List<WebhookSubscription> subscriptions = new ArrayList<>();
        for (JsonNode s : json.readTree(rs.getString("subscriptions"))) {
            subscriptions.add(new WebhookSubscription(
                    s.path("eventType").asString(),
                    s.has("filtersJson") ? Optional.of(s.path("filtersJson").asString()) : Optional.empty(),
                    s.path("isActive").asBoolean(true)));
        }
        return new WebhookEndpoint(
                rs.getString("id"),
                rs.getString("organization_id"),
                rs.getString("url"),
                rs.getString("name"),
                rs.getBoolean("is_active"),
                subscriptions,
                Sql.instant(rs, "created_at"),
                Sql.instant(rs, "updated_at"));
    }

    private static WebhookDelivery delivery(ResultSet rs) throws SQLException {
        int code = rs.getInt("last_status_code");
        Optional<Integer> lastStatusCode = rs.wasNull() ? Optional.empty() : Optional.of(code);
        return new WebhookDelivery(
                rs.getString("id"),
                rs.getString("event_id"),
                rs.getString("endpoint_id"),
                rs.getString("organization_id"),
                rs.getString("event_type"),
                rs.getString("body"),
                WebhookDelivery.Status.valueOf(rs.getString("status")),
                rs.getInt("attempts"),
                Sql.instant(rs, "next_attempt_at"),
                lastStatusCode,
                Optional.ofNullable(rs.getString("last_error")),
                Sql.instant(rs, "created_at"),
                Sql.instant(rs, "updated_at"));
    }
}
