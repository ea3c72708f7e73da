-- Keyhaven schema, part 2: custody (the KEK check value), wallets and their accounts, private keys with their
-- addresses and tags. Key material is stored only sealed (AES-256-GCM under the KEK, base64 TEXT).

-- One row: a random value sealed under the KEK the database first saw, so a different KEK is detected at start.
CREATE TABLE master_key_check (
    id         TEXT PRIMARY KEY,
    sealed     TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE wallets (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    name            TEXT NOT NULL,
    mnemonic_sealed TEXT NOT NULL,
    exported        BOOLEAN NOT NULL,
    imported        BOOLEAN NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE UNIQUE INDEX wallets_name ON wallets (organization_id, name);
CREATE INDEX wallets_by_organization ON wallets (organization_id, id);

-- address_key is the address as lookups compare it (lower-case hex, canonical TON form). Two accounts may share an
-- address (Bitcoin testnet and signet encode alike), so it is indexed, not unique; the derivation is unique.
CREATE TABLE wallet_accounts (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    wallet_id       TEXT NOT NULL REFERENCES wallets (id),
    curve           TEXT NOT NULL,
    path_format     TEXT NOT NULL,
    path            TEXT NOT NULL,
    canonical_path  TEXT NOT NULL,
    address_format  TEXT NOT NULL,
    address         TEXT NOT NULL,
    address_key     TEXT NOT NULL,
    public_key      TEXT NOT NULL,
    name            TEXT,
    key_sealed      TEXT NOT NULL,
    exported        BOOLEAN NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE UNIQUE INDEX wallet_accounts_derivation ON wallet_accounts (wallet_id, curve, canonical_path, address_format);
CREATE UNIQUE INDEX wallet_accounts_name ON wallet_accounts (organization_id, name);
CREATE INDEX wallet_accounts_by_address ON wallet_accounts (organization_id, address_key);
CREATE INDEX wallet_accounts_by_organization ON wallet_accounts (organization_id, id);
CREATE INDEX wallet_accounts_by_wallet ON wallet_accounts (wallet_id, id);

CREATE TABLE private_keys (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    name            TEXT NOT NULL,
    curve           TEXT NOT NULL,
    public_key      TEXT NOT NULL,
    key_sealed      TEXT NOT NULL,
    exported        BOOLEAN NOT NULL,
    imported        BOOLEAN NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE UNIQUE INDEX private_keys_name ON private_keys (organization_id, name);
CREATE INDEX private_keys_by_organization ON private_keys (organization_id, id);

CREATE TABLE private_key_addresses (
    private_key_id  TEXT NOT NULL REFERENCES private_keys (id),
    position        INTEGER NOT NULL,
    organization_id TEXT NOT NULL,
    address_format  TEXT NOT NULL,
    address         TEXT NOT NULL,
    address_key     TEXT NOT NULL,
    PRIMARY KEY (private_key_id, position)
);
CREATE INDEX private_key_addresses_by_address ON private_key_addresses (organization_id, address_key);

CREATE TABLE private_key_tags (
    tag_id         TEXT NOT NULL REFERENCES tags (id),
    private_key_id TEXT NOT NULL REFERENCES private_keys (id),
    PRIMARY KEY (tag_id, private_key_id)
);
CREATE INDEX private_key_tags_by_key ON private_key_tags (private_key_id);
