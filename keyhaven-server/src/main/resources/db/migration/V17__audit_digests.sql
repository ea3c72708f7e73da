-- An audit entry for a row that never changes after it (a vote; an activity recorded in a final status, as every
-- signature is) keeps the SHA-256 of its content instead of the content: the row itself is the content, and the hash,
-- which the entry's own hash covers as before, fixes it. Such entries repeated their rows and were half of the bytes a
-- signature wrote (BENCHMARKS.md). Readers take the content from the row; a row that no longer hashes to its entry's
-- content_hash was edited. Every other entry keeps its content, as before. content becomes nullable, which SQLite can
-- only do by copying the table.
CREATE TABLE audit_entries_v17 (
    organization_id TEXT NOT NULL,
    seq             BIGINT NOT NULL,
    kind            TEXT NOT NULL,
    activity_id     TEXT NOT NULL,
    record_id       TEXT NOT NULL,
    content         TEXT,
    content_hash    TEXT,
    prev_hash       TEXT NOT NULL,
    hash            TEXT NOT NULL,
    PRIMARY KEY (organization_id, seq),
    CHECK ((content IS NULL) <> (content_hash IS NULL))
);
INSERT INTO audit_entries_v17 (organization_id, seq, kind, activity_id, record_id, content, prev_hash, hash)
    SELECT organization_id, seq, kind, activity_id, record_id, content, prev_hash, hash FROM audit_entries;
DROP TABLE audit_entries;
ALTER TABLE audit_entries_v17 RENAME TO audit_entries;
