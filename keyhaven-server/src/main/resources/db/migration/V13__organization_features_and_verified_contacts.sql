-- Keyhaven schema, part 13: organization features (set_organization_feature / remove_organization_feature) and
-- which user contacts are verified (list_verified_suborgs).
--
-- A row is an enabled feature, as Turnkey lists them: get_organization_configs returns the rows, and a feature that
-- gates activities (email recovery, email and SMS OTP, email auth) refuses them when its row is absent. Every
-- organization that existed before this migration could use all of those, so each gets them, keeping what worked.
CREATE TABLE organization_features (
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    name            TEXT NOT NULL,
    value           TEXT NOT NULL,
    updated_at      BIGINT NOT NULL,
    PRIMARY KEY (organization_id, name)
);
INSERT INTO organization_features (organization_id, name, value, updated_at)
    SELECT id, 'FEATURE_NAME_EMAIL_RECOVERY', '', updated_at FROM organizations;
INSERT INTO organization_features (organization_id, name, value, updated_at)
    SELECT id, 'FEATURE_NAME_EMAIL_AUTH', '', updated_at FROM organizations;
INSERT INTO organization_features (organization_id, name, value, updated_at)
    SELECT id, 'FEATURE_NAME_OTP_EMAIL_AUTH', '', updated_at FROM organizations;
INSERT INTO organization_features (organization_id, name, value, updated_at)
    SELECT id, 'FEATURE_NAME_SMS_AUTH', '', updated_at FROM organizations;

-- A contact is verified when a user proved they receive it (an OTP verification token for it signed them up);
-- list_verified_suborgs matches only those, list_suborgs any. Existing users' contacts are unverified.
ALTER TABLE users ADD COLUMN email_verified BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE users ADD COLUMN phone_number_verified BOOLEAN NOT NULL DEFAULT FALSE;
