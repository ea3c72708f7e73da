-- App proofs (turnkey-api.md §5.3) and TVC manifests with their operator approvals.

-- The proofs an activity produced when its request set generateAppProofs, as a JSON array; NULL when it did not.
ALTER TABLE activities ADD COLUMN app_proofs TEXT;

-- Keyhaven's long-term signing key (P-256), sealed under the KEK; one row. It signs each server start's boot proof.
CREATE TABLE server_identity (
    id          TEXT PRIMARY KEY,
    public_key  TEXT NOT NULL,
    key_sealed  TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);

-- One row per server start: the ephemeral public key that signs app proofs, bound to the long-term key by a signature
-- over the statement (JSON text, kept byte for byte).
CREATE TABLE boot_proofs (
    ephemeral_public_key TEXT PRIMARY KEY,
    statement            TEXT NOT NULL,
    identity_public_key  TEXT NOT NULL,
    signature            TEXT NOT NULL,
    created_at           BIGINT NOT NULL
);
CREATE INDEX boot_proofs_by_time ON boot_proofs (created_at);

CREATE TABLE tvc_operators (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    name            TEXT NOT NULL,
    public_key      TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE UNIQUE INDEX tvc_operators_name ON tvc_operators (organization_id, name);

-- An operator set (a manifest set or a share set) and its members.
CREATE TABLE tvc_operator_sets (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    name            TEXT NOT NULL,
    threshold       INTEGER NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE TABLE tvc_operator_set_members (
    set_id      TEXT NOT NULL REFERENCES tvc_operator_sets (id),
    operator_id TEXT NOT NULL REFERENCES tvc_operators (id),
    position    INTEGER NOT NULL,
    PRIMARY KEY (set_id, operator_id)
);

CREATE TABLE tvc_apps (
    id                 TEXT PRIMARY KEY,
    organization_id    TEXT NOT NULL REFERENCES organizations (id),
    name               TEXT NOT NULL,
    quorum_public_key  TEXT NOT NULL,
    manifest_set_id    TEXT NOT NULL REFERENCES tvc_operator_sets (id),
    share_set_id       TEXT NOT NULL REFERENCES tvc_operator_sets (id),
    enable_egress      BOOLEAN NOT NULL,
    enable_debug_mode  BOOLEAN NOT NULL,
    created_at         BIGINT NOT NULL,
    updated_at         BIGINT NOT NULL
);
CREATE UNIQUE INDEX tvc_apps_name ON tvc_apps (organization_id, name);

-- A deployment and its manifest (one manifest per deployment; manifest_id names it). manifest is the UTF-8 JSON
-- text, manifest_hash the hex SHA-256 of its bytes, which operators sign.
CREATE TABLE tvc_deployments (
    id                TEXT PRIMARY KEY,
    organization_id   TEXT NOT NULL REFERENCES organizations (id),
    app_id            TEXT NOT NULL REFERENCES tvc_apps (id),
    manifest_id       TEXT NOT NULL,
    manifest          TEXT NOT NULL,
    manifest_hash     TEXT NOT NULL,
    qos_version       TEXT NOT NULL,
    pivot_container   TEXT NOT NULL,
    debug_mode        BOOLEAN NOT NULL,
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL
);
CREATE UNIQUE INDEX tvc_deployments_manifest ON tvc_deployments (manifest_id);
CREATE INDEX tvc_deployments_by_app ON tvc_deployments (app_id, created_at, id);

-- One approval per operator and manifest: the unique index refuses a duplicate even from concurrent activities.
CREATE TABLE tvc_manifest_approvals (
    id            TEXT PRIMARY KEY,
    manifest_id   TEXT NOT NULL REFERENCES tvc_deployments (manifest_id),
    operator_id   TEXT NOT NULL REFERENCES tvc_operators (id),
    signature     TEXT NOT NULL,
    created_at    BIGINT NOT NULL
);
CREATE UNIQUE INDEX tvc_manifest_approvals_once ON tvc_manifest_approvals (manifest_id, operator_id);
