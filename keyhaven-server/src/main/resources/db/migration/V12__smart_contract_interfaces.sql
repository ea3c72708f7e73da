-- Smart-contract interfaces (create_smart_contract_interface): an Ethereum JSON ABI or a Solana Anchor IDL, as
-- uploaded (at most 400 kB), for one contract address. address_key is what lookups compare: an Ethereum address in
-- lower case, a Solana program id as written. Instants in microseconds.
CREATE TABLE smart_contract_interfaces (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    type            TEXT NOT NULL,
    address         TEXT NOT NULL,
    address_key     TEXT NOT NULL,
    document        TEXT NOT NULL,
    label           TEXT NOT NULL,
    notes           TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
-- One interface per organization, type and contract: a transaction's call is read one way only.
CREATE UNIQUE INDEX smart_contract_interfaces_by_address
    ON smart_contract_interfaces (organization_id, type, address_key);
