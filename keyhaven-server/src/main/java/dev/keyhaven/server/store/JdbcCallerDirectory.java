package dev.keyhaven.server.store;

import dev.keyhaven.server.auth.CallerDirectory;
import dev.keyhaven.server.auth.VerifiedStamp;
import dev.keyhaven.server.tx.Tx;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * Credential lookups for caller resolution: API keys by public key, authenticators by credential id, and for attested
 * stamps OAuth providers by identity key and users by verified email or phone number.
 */
public final class JdbcCallerDirectory implements CallerDirectory {
    private static final String API_KEY =
            "SELECT organization_id, user_id, id, credential_type, expires_at " + "FROM api_keys";
    private static final String AUTHENTICATOR = "SELECT organization_id, user_id, id, "
            + "'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR' AS credential_type, NULL AS expires_at FROM authenticators";
    /** An attested key whose OIDC token proves the identity of an OAuth provider (the provider is the credential). */
    private static final String OAUTH_PROVIDER = "SELECT organization_id, user_id, id, "
            + "'CREDENTIAL_TYPE_OAUTH_KEY_P256' AS credential_type, NULL AS expires_at FROM oauth_providers";
    /** An attested key whose verification token proves a user's contact (the user is the credential). */
    private static final String OTP_CONTACT = "SELECT organization_id, id AS user_id, id, "
            + "'CREDENTIAL_TYPE_OTP_AUTH_KEY_P256' AS credential_type, NULL AS expires_at FROM users";

    @Override
    public Optional<Target> target(Tx tx, String organizationId, VerifiedStamp.Kind kind, String credentialKey) {
        String credentials = select(kind) + " WHERE organization_id = ? AND " + keyColumn(kind) + " = ?";
        return Sql.one(
                tx,
                "SELECT o.id AS target_id, o.parent_id AS target_parent, c.organization_id, c.user_id, "
                        + "c.id, c.credential_type, c.expires_at FROM organizations o LEFT JOIN (" + credentials
                        + ") c ON 1 = 1 "
                        + "WHERE o.id = ?",
                rs -> new Target(
                        new OrganizationNode(
                                rs.getString("target_id"), Optional.ofNullable(rs.getString("target_parent"))),
                        rs.getString("user_id") == null ? Optional.empty() : Optional.of(match(rs))),
                organizationId,
                credentialKey,
                organizationId);
    }

    @Override
    public Optional<CredentialMatch> credential(
            Tx tx, String organizationId, VerifiedStamp.Kind kind, String credentialKey) {
        return Sql.one(
                tx,
                select(kind) + " WHERE organization_id = ? AND " + keyColumn(kind) + " = ?",
                JdbcCallerDirectory::match,
                organizationId,
                credentialKey);
    }

    @Override
    public List<CredentialMatch> credentialInSubOrganizations(
            Tx tx, String parentOrganizationId, VerifiedStamp.Kind kind, String credentialKey) {
        return Sql.list(
                tx,
                select(kind) + " WHERE " + keyColumn(kind) + " = ? AND organization_id IN "
                        + "(SELECT id FROM organizations WHERE parent_id = ?)",
                JdbcCallerDirectory::match,
                credentialKey,
                parentOrganizationId);
    }

    private static String select(VerifiedStamp.Kind kind) {
        return switch (kind) {
            case API_KEY -> API_KEY;
            case WEBAUTHN -> AUTHENTICATOR;
            case OIDC -> OAUTH_PROVIDER;
            case OTP_EMAIL, OTP_SMS -> OTP_CONTACT;
        };
    }

    private static String keyColumn(VerifiedStamp.Kind kind) {
        return switch (kind) {
            case API_KEY -> "public_key";
            case WEBAUTHN -> "credential_id";
            case OIDC -> "identity_key";
            case OTP_EMAIL -> "email_normalized";
            case OTP_SMS -> "phone_number";
        };
    }

    private static CredentialMatch match(ResultSet rs) throws SQLException {
        return new CredentialMatch(
                rs.getString("organization_id"),
                rs.getString("user_id"),
                rs.getString("id"),
                rs.getString("credential_type"),
                Sql.optionalInstant(rs, "expires_at"));
    }
}
