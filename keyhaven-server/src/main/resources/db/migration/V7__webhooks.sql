-- Webhooks: endpoints with their subscriptions, the delivery outbox, and the Ed25519 keys that sign deliveries.

-- subscriptions: a JSON array of {eventType, filtersJson?, isActive}; an organization has few endpoints, so they are
-- read whole and the subscribed ones picked in Java.
CREATE TABLE webhook_endpoints (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    url             TEXT NOT NULL,
    name            TEXT NOT NULL,
    is_active       BOOLEAN NOT NULL,
    subscriptions   TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX webhook_endpoints_by_organization ON webhook_endpoints (organization_id, id);

-- The outbox: one row per event and endpoint, written in the transaction of the activity change it reports.
-- event_id is stable across retries; next_attempt_at is also the lease of a delivery being attempted (a claim moves
-- it past the attempt's timeout, so no other server takes the row meanwhile, and a crashed attempt runs again).
-- status: PENDING, DELIVERED, FAILED. Instants in microseconds.
CREATE TABLE webhook_deliveries (
    id               TEXT PRIMARY KEY,
    event_id         TEXT NOT NULL,
    endpoint_id      TEXT NOT NULL,
    organization_id  TEXT NOT NULL,
    event_type       TEXT NOT NULL,
    body             TEXT NOT NULL,
    status           TEXT NOT NULL,
    attempts         INTEGER NOT NULL,
    next_attempt_at  BIGINT NOT NULL,
    last_status_code INTEGER,
    last_error       TEXT,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, id);

-- Signing keys: the newest key without retired_at signs; retired keys stay in the JWKS for a grace period.
CREATE TABLE webhook_signing_keys (
    id         TEXT PRIMARY KEY,
    public_key TEXT NOT NULL,
    key_sealed TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    retired_at BIGINT
);
