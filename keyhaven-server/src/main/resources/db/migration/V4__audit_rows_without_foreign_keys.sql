-- Activities and votes are append-only and written only by the activity engine, together with the check that their
-- organization exists (it reads the organization's state version in the same statement or transaction). Their
-- foreign keys added nothing to that but cost: on PostgreSQL each insert took a shared lock on the organization's
-- row, and concurrent ones turn into MultiXacts — about 50 µs of database CPU per activity (BENCHMARKS.md).
-- SQLite cannot drop a constraint, so both tables are rebuilt, the same way on both stores.
CREATE TABLE activities_v4 (
    id                        TEXT PRIMARY KEY,
    organization_id           TEXT NOT NULL,
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
INSERT INTO activities_v4 SELECT id, organization_id, type, status, intent, result, failure_code, failure_message,
    failure_reported_as_error, fingerprint, created_at, updated_at FROM activities;

CREATE TABLE votes_v4 (
    id              TEXT PRIMARY KEY,
    activity_id     TEXT NOT NULL,
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
INSERT INTO votes_v4 SELECT id, activity_id, organization_id, user_id, user_snapshot, selection, message, public_key,
    signature, scheme, created_at FROM votes;

DROP TABLE votes;
DROP TABLE activities;
ALTER TABLE activities_v4 RENAME TO activities;
ALTER TABLE votes_v4 RENAME TO votes;
CREATE UNIQUE INDEX activities_fingerprint ON activities (organization_id, fingerprint);
CREATE INDEX activities_by_time ON activities (organization_id, created_at, id);
CREATE INDEX votes_by_activity ON votes (activity_id, created_at);
