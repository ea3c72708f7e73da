-- Keyhaven schema, part 6: encrypted bundles (export, import). The bundle signer is the P-256 key that signs export
-- bundles and import targets (Turnkey's "enclaveQuorumPublic"); one row, its key sealed under the KEK like every
-- other key. Import targets are the single-use, expiring P-256 keys an import bundle is encrypted to.

CREATE TABLE bundle_signer (
    id         TEXT PRIMARY KEY,
    public_key TEXT NOT NULL,
    key_sealed TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- kind: WALLET or PRIVATE_KEY. A target is deleted when an import uses it; expired ones are never used and are
-- deleted by the next init of the same user and kind.
CREATE TABLE import_targets (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    user_id         TEXT NOT NULL,
    kind            TEXT NOT NULL,
    public_key      TEXT NOT NULL,
    key_sealed      TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    expires_at      BIGINT NOT NULL
);
CREATE INDEX import_targets_by_user ON import_targets (organization_id, user_id, kind, created_at);
