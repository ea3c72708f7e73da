-- Keyhaven schema, part 10: users' OAuth providers (OIDC identities) and used OIDC tokens. A provider is the
-- identity (issuer, audience, subject) a user signs in with; family_id is the organization's top organization (its
-- parent, or itself), so the unique index keeps one identity to one user across an organization and its
-- sub-organizations and a login by token finds one user. identity_key (oidc.OidcIdentity) finds the holder of an
-- identity in one indexed lookup (caller resolution of X-Stamp-Attested). A token opens at most one session: its
-- fingerprint (SHA-256 of the compact JWS, never the token) is kept until the token expires.

CREATE TABLE oauth_providers (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    family_id       TEXT NOT NULL,
    user_id         TEXT NOT NULL,
    provider_name   TEXT NOT NULL,
    issuer          TEXT NOT NULL,
    audience        TEXT NOT NULL,
    subject         TEXT NOT NULL,
    identity_key    TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE UNIQUE INDEX oauth_providers_identity ON oauth_providers (family_id, issuer, audience, subject);
CREATE INDEX oauth_providers_by_user ON oauth_providers (organization_id, user_id, created_at);
CREATE INDEX oauth_providers_by_identity ON oauth_providers (identity_key, organization_id);

CREATE TABLE oidc_used_tokens (
    fingerprint     TEXT PRIMARY KEY,
    used_at         BIGINT NOT NULL,
    expires_at      BIGINT NOT NULL
);
CREATE INDEX oidc_used_tokens_by_expiry ON oidc_used_tokens (expires_at);
