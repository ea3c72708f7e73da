-- Envelope encryption (custody.DataKeys). Each owner of secrets (an organization, or one of the deployment's own
-- scopes such as the webhook signing keys) has an AES-256 data key of its own; its secrets are sealed under that key
-- and the data keys are wrapped by the KEK, which wraps nothing else. Rotating the KEK re-wraps data_keys and
-- replaces the check value, in one transaction; no secret is touched.

-- One row: the current KEK. Its check value is a random value only it opens (the master_key_check row carried over:
-- it was sealed directly under the KEK, in the format a file KEK wraps with). locator says where the KEK lives,
-- without any secret (a file URI or an RFC 7512 PKCS#11 URI), so running servers can follow a rotation; it is NULL
-- until a server records it.
CREATE TABLE kek (
    id          TEXT PRIMARY KEY,
    generation  BIGINT NOT NULL,
    locator     TEXT,
    check_value TEXT NOT NULL,
    changed_at  BIGINT NOT NULL
);
INSERT INTO kek (id, generation, locator, check_value, changed_at)
    SELECT 'kek', 1, NULL, sealed, created_at FROM master_key_check;
DROP TABLE master_key_check;

CREATE TABLE data_keys (
    owner_id       TEXT PRIMARY KEY,
    wrapped        TEXT NOT NULL,
    kek_generation BIGINT NOT NULL,
    created_at     BIGINT NOT NULL
);
