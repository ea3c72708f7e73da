-- The tamper-evident activity log (package audit). Every change to an activity's record (its creation, each vote,
-- each change of status and result, its app proofs) appends one entry to its organization's hash chain in the same
-- transaction as the change. The chain's head lives on the organization's row, so appending reads it under the row
-- lock that advancing the state version takes (signing's short write takes that lock for the append), and two
-- writers cannot fork the chain; the primary key refuses a second entry at one sequence number all the same.
ALTER TABLE organizations ADD COLUMN audit_seq BIGINT NOT NULL DEFAULT 0;
ALTER TABLE organizations ADD COLUMN audit_head TEXT;

CREATE TABLE audit_entries (
    organization_id TEXT NOT NULL,
    seq             BIGINT NOT NULL,
    kind            TEXT NOT NULL,
    activity_id     TEXT NOT NULL,
    record_id       TEXT NOT NULL,
    content         TEXT NOT NULL,
    prev_hash       TEXT NOT NULL,
    hash            TEXT NOT NULL,
    PRIMARY KEY (organization_id, seq)
);

-- Heads of the chains signed by Keyhaven's identity key (the one boot proofs use), now and then.
CREATE TABLE audit_signed_heads (
    organization_id TEXT NOT NULL,
    seq             BIGINT NOT NULL,
    head_hash       TEXT NOT NULL,
    signature       TEXT NOT NULL,
    signed_at       BIGINT NOT NULL,
    PRIMARY KEY (organization_id, seq)
);

-- Activities recorded before this version have no entries; the verifier knows them by this list and leaves them out.
CREATE TABLE audit_baseline (
    activity_id TEXT PRIMARY KEY
);
INSERT INTO audit_baseline SELECT id FROM activities;
