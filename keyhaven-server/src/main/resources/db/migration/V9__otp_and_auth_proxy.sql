-- Keyhaven schema, part 9: one-time passwords and the auth proxy. An OTP keeps only a keyed hash of its code
-- (custody.OtpKeys.codeHash) and its target key sealed under the KEK; it is used once (used_at), expires, and dies
-- after five wrong attempts. A verification token is used by at most one login (otp_used_tokens). The OTP and
-- session signers are rows of bundle_signer (ids 'otp-signer', 'session-signer').

CREATE TABLE otp_codes (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    otp_type        TEXT NOT NULL,
    contact         TEXT NOT NULL,
    code_hash       TEXT NOT NULL,
    key_sealed      TEXT NOT NULL,
    attempts        INTEGER NOT NULL,
    created_at      BIGINT NOT NULL,
    expires_at      BIGINT NOT NULL,
    used_at         BIGINT
);
CREATE INDEX otp_codes_by_expiry ON otp_codes (expires_at);

CREATE TABLE otp_used_tokens (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    used_at         BIGINT NOT NULL,
    expires_at      BIGINT NOT NULL
);

-- settings: the configuration as JSON (allowed origins, channels, OTP length and alphabet, lifetimes, app name,
-- email template, sign-up).
CREATE TABLE auth_proxy_configs (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    settings        TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX auth_proxy_configs_by_organization ON auth_proxy_configs (organization_id, created_at);
