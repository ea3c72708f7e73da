-- OAuth 2.0 client credentials (create_oauth2_credential): the client secret arrives encrypted to Keyhaven's
-- credential-encryption key. encrypted_client_secret is that envelope exactly as received (hex; what the views return:
-- ciphertext only Keyhaven can open); secret_sealed is the plain secret re-sealed under the KEK (base64 of
-- version || nonce || ciphertext || tag, AAD binding organization and credential id), what oauth2_authenticate opens.
-- Instants in microseconds.
CREATE TABLE oauth2_credentials (
    id                      TEXT PRIMARY KEY,
    organization_id         TEXT NOT NULL,
    provider                TEXT NOT NULL,
    client_id               TEXT NOT NULL,
    encrypted_client_secret TEXT NOT NULL,
    secret_sealed           TEXT NOT NULL,
    created_at              BIGINT NOT NULL,
    updated_at              BIGINT NOT NULL
);
-- One credential per organization, provider and client id: the auth proxy finds a credential by exactly these.
CREATE UNIQUE INDEX oauth2_credentials_by_client ON oauth2_credentials (organization_id, provider, client_id);
