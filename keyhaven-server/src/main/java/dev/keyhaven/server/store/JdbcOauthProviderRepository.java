package dev.keyhaven.server.store;

import dev.keyhaven.server.oidc.OidcIdentity;
import dev.keyhaven.server.tx.Tx;
import dev.keyhaven.server.user.OauthProvider;
import dev.keyhaven.server.user.OauthProviderRepository;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Users' OAuth providers ({@code oauth_providers}) and used OIDC tokens ({@code oidc_used_tokens}). */
public final class JdbcOauthProviderRepository implements OauthProviderRepository {
    private static final String COLUMNS =
            "id, organization_id, user_id, provider_name, issuer, audience, subject, " + "created_at, updated_at";
    /** The top organization of an organization: its parent, or itself. */
    private static final String FAMILY = "COALESCE((SELECT parent_id FROM organizations WHERE id = ?), ?)";

    @Override
    public void insert(Tx tx, OauthProvider p) {
        Sql.update(
                tx,
                "INSERT INTO oauth_providers (" + COLUMNS + ", identity_key, family_id) VALUES (?, ?, ?, ?, ?, "
                        + "?, ?, ?, ?, ?, " + FAMILY + ")",
                p.id(),
                p.organizationId(),
                p.userId(),
                p.name(),
                p.issuer(),
                p.audience(),
                p.subject(),
                p.createdAt(),
                p.updatedAt(),
                OidcIdentity.key(p.issuer(), p.audience(), p.subject()),
                p.organizationId(),
                p.organizationId());
    }

    @Override
    public Optional<OauthProvider> find(Tx tx, String organizationId, String providerId) {
        return Sql.one(
                tx,
                "SELECT " + COLUMNS + " FROM oauth_providers WHERE organization_id = ? AND id = ?",
                JdbcOauthProviderRepository::row,
                organizationId,
                providerId);
    }

    @Override
    public List<OauthProvider> list(Tx tx, String organizationId, Optional<String> userId) {
        return userId.isPresent()
                ? Sql.list(
                        tx,
                        "SELECT " + COLUMNS + " FROM oauth_providers WHERE organization_id = ? AND user_id = ? "
                                + "ORDER BY created_at, id",
                        JdbcOauthProviderRepository::row,
                        organizationId,
                        userId.get())
                : Sql.list(
                        tx,
                        "SELECT " + COLUMNS + " FROM oauth_providers WHERE organization_id = ? "
                                + "ORDER BY created_at, id",
                        JdbcOauthProviderRepository::row,
                        organizationId);
    }

    @Override
    public void delete(Tx tx, String organizationId, String providerId) {
        Sql.update(tx, "DELETE FROM oauth_providers WHERE organization_id = ? AND id = ?", organizationId, providerId);
    }

    @Override
    public List<OauthProvider> withIdentity(
            Tx tx, String organizationId, String issuer, String audience, String subject) {
        return Sql.list(
                tx,
                "SELECT " + COLUMNS + " FROM oauth_providers WHERE family_id = " + FAMILY
                        + " AND issuer = ? AND audience = ? AND subject = ? ORDER BY organization_id, id",
                JdbcOauthProviderRepository::row,
                organizationId,
                organizationId,
                issuer,
                audience,
                subject);
    }

    @Override
    public List<OauthProvider> withIdentityUnder(
            Tx tx, String organizationId, String issuer, String audience, String subject) {
        return Sql.list(
                tx,
                "SELECT p.id, p.organization_id, p.user_id, p.provider_name, p.issuer, p.audience, "
                        + "p.subject, p.created_at, p.updated_at FROM oauth_providers p JOIN organizations o "
                        + "ON o.id = p.organization_id WHERE (o.id = ? OR o.parent_id = ?) AND p.issuer = ? AND p.audience = ? "
                        + "AND p.subject = ? ORDER BY p.organization_id, p.id",
                JdbcOauthProviderRepository::row,
                organizationId,
                organizationId,
                issuer,
                audience,
                subject);
    }

    @Override
    public boolean useToken(Tx tx, String fingerprint, Instant now, Instant expiresAt) {
        Sql.update(tx, "DELETE FROM oidc_used_tokens WHERE expires_at < ?", now);
        if (Sql.exists(tx, "SELECT 1 FROM oidc_used_tokens WHERE fingerprint = ?", fingerprint)) {
            return false;
        }
        Sql.update(
                tx,
                "INSERT INTO oidc_used_tokens (fingerprint, used_at, expires_at) VALUES (?, ?, ?)",
                fingerprint,
                now,
                expiresAt);
        return true;
    }

    private static OauthProvider row(ResultSet rs) throws SQLException {
        return new OauthProvider(
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                rs.getString(5),
                rs.getString(6),
                rs.getString(7),
                Sql.instant(rs, "created_at"),
                Sql.instant(rs, "updated_at"));
    }
}
