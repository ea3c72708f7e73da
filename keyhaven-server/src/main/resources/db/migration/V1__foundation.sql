-- Keyhaven schema, part 1: organizations, users and their credentials, tags, activities and votes.
-- Portable between SQLite and PostgreSQL: TEXT ids, BIGINT microseconds since the epoch for instants,
-- JSON kept as TEXT. Deletes are explicit in the repositories, so no ON DELETE behaviour is relied upon.

CREATE TABLE organizations (
    id                    TEXT PRIMARY KEY,
    name                  TEXT NOT NULL,
    parent_id             TEXT REFERENCES organizations (id),
    root_quorum_threshold INTEGER NOT NULL,
    -- Maintained with every insert and delete of a user, so that limit checks do not count rows.
    user_count            INTEGER NOT NULL DEFAULT 0,
    created_at            BIGINT NOT NULL,
    updated_at            BIGINT NOT NULL
);
CREATE INDEX organizations_parent ON organizations (parent_id);

CREATE TABLE users (
    id               TEXT PRIMARY KEY,
    organization_id  TEXT NOT NULL REFERENCES organizations (id),
    name             TEXT NOT NULL,
    email            TEXT,
    email_normalized TEXT,
    phone_number     TEXT,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL
);
CREATE INDEX users_by_organization ON users (organization_id, created_at, id);
CREATE UNIQUE INDEX users_email ON users (organization_id, email_normalized);

CREATE TABLE root_quorum_members (
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    user_id         TEXT NOT NULL REFERENCES users (id),
    PRIMARY KEY (organization_id, user_id)
);

CREATE TABLE api_keys (
    id                 TEXT PRIMARY KEY,
    organization_id    TEXT NOT NULL REFERENCES organizations (id),
    user_id            TEXT NOT NULL REFERENCES users (id),
    name               TEXT NOT NULL,
    public_key         TEXT NOT NULL,
    curve              TEXT NOT NULL,
    credential_type    TEXT NOT NULL,
    expiration_seconds BIGINT,
    expires_at         BIGINT,
    created_at         BIGINT NOT NULL,
    updated_at         BIGINT NOT NULL
);
CREATE UNIQUE INDEX api_keys_public_key ON api_keys (organization_id, public_key);
CREATE INDEX api_keys_by_public_key ON api_keys (public_key);
CREATE INDEX api_keys_by_user ON api_keys (user_id, created_at);

CREATE TABLE authenticators (
    id               TEXT PRIMARY KEY,
    organization_id  TEXT NOT NULL REFERENCES organizations (id),
    user_id          TEXT NOT NULL REFERENCES users (id),
    name             TEXT NOT NULL,
    credential_id    TEXT NOT NULL,
    public_key       TEXT NOT NULL,
    public_key_cose  TEXT NOT NULL,
    aaguid           TEXT NOT NULL,
    attestation_type TEXT NOT NULL,
    transports       TEXT NOT NULL,
    model            TEXT NOT NULL,
    sign_count       BIGINT NOT NULL,
    rp_id            TEXT NOT NULL,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL
);
CREATE UNIQUE INDEX authenticators_credential_id ON authenticators (organization_id, credential_id);
CREATE INDEX authenticators_by_credential_id ON authenticators (credential_id);
CREATE INDEX authenticators_by_user ON authenticators (user_id, created_at);

CREATE TABLE tags (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    name            TEXT NOT NULL,
    tag_type        TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE UNIQUE INDEX tags_name ON tags (organization_id, tag_type, name);

CREATE TABLE user_tags (
    tag_id  TEXT NOT NULL REFERENCES tags (id),
    user_id TEXT NOT NULL REFERENCES users (id),
    PRIMARY KEY (tag_id, user_id)
);
CREATE INDEX user_tags_by_user ON user_tags (user_id);

CREATE TABLE activities (
    id                        TEXT PRIMARY KEY,
    organization_id           TEXT NOT NULL REFERENCES organizations (id),
    type                      TEXT NOT NULL,
    status                    TEXT NOT NULL,
    intent                    TEXT NOT NULL,
    result                    TEXT NOT NULL,
    failure_code              TEXT,
    failure_message           TEXT,
    failure_reported_as_error BOOLEAN,
    fingerprint               TEXT NOT NULL,
    created_at                BIGINT NOT NULL,
    updated_at                BIGINT NOT NULL
);
CREATE UNIQUE INDEX activities_fingerprint ON activities (organization_id, fingerprint);
CREATE INDEX activities_by_time ON activities (organization_id, created_at, id);

-- A vote keeps the voter's user record as it was; users may be deleted later, so user_id has no foreign key.
CREATE TABLE votes (
    id              TEXT PRIMARY KEY,
    activity_id     TEXT NOT NULL REFERENCES activities (id),
    organization_id TEXT NOT NULL,
    user_id         TEXT NOT NULL,
    user_snapshot   TEXT NOT NULL,
    selection       TEXT NOT NULL,
    message         TEXT NOT NULL,
    public_key      TEXT NOT NULL,
    signature       TEXT NOT NULL,
    scheme          TEXT NOT NULL,
    created_at      BIGINT NOT NULL
);
CREATE INDEX votes_by_activity ON votes (activity_id, created_at);
