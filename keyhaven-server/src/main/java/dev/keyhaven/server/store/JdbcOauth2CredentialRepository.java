package dev.keyhaven.server.store;

import dev.keyhaven.server.custody.SealedSecret;
import dev.keyhaven.server.oauth2.Oauth2Credential;
import dev.keyhaven.server.oauth2.Oauth2CredentialRepository;
import dev.keyhaven.server.oauth2.Oauth2Provider;
import dev.keyhaven.server.tx.Tx;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/** OAuth 2.0 credentials ({@code oauth2_credentials}, V11). */
public final class JdbcOauth2CredentialRepository implements Oauth2CredentialRepository {
    private static final String COLUMNS = "id, organization_id, provider, client_id, encrypted_client_secret, "
            + "secret_sealed, created_at, updated_at";

    @Override
    public void insert(Tx tx, Oauth2Credential c) {
        Sql.update(
                tx,
                "INSERT INTO oauth2_credentials (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                c.id(),
                c.organizationId(),
                c.provider().wireName(),
                c.clientId(),
                c.encryptedClientSecret(),
                c.secretSealed().base64(),
                c.createdAt(),
                c.updatedAt());
    }

    @Override
    public void update(Tx tx, Oauth2Credential c) {
        Sql.update(
                tx,
                "UPDATE oauth2_credentials SET provider = ?, client_id = ?, encrypted_client_secret = ?, "
                        + "secret_sealed = ?, updated_at = ? WHERE organization_id = ? AND id = ?",
                c.provider().wireName(),
                c.clientId(),
                c.encryptedClientSecret(),
                c.secretSealed().base64(),
                c.updatedAt(),
                c.organizationId(),
                c.id());
    }

    @Override
    public void delete(Tx tx, String organizationId, String credentialId) {
        Sql.update(
                tx,
                "DELETE FROM oauth2_credentials WHERE organization_id = ? AND id = ?",
                organizationId,
                credentialId);
    }

    @Override
    public Optional<Oauth2Credential> find(Tx tx, String organizationId, String credentialId) {
        return Sql.one(
                tx,
                "SELECT " + COLUMNS + " FROM oauth2_credentials WHERE organization_id = ? AND id = ?",
                JdbcOauth2CredentialRepository::credential,
                organizationId,
                credentialId);
    }

    @Override
    public Optional<Oauth2Credential> findByClient(
            Tx tx, String organizationId, Oauth2Provider provider, String clientId) {
        return Sql.one(
                tx,
                "SELECT " + COLUMNS + " FROM oauth2_credentials WHERE organization_id = ? AND "
                        + "provider = ? AND client_id = ?",
                JdbcOauth2CredentialRepository::credential,
                organizationId,
                provider.wireName(),
                clientId);
    }

    @Override
    public List<Oauth2Credential> list(Tx tx, String organizationId) {
        return Sql.list(
                tx,
                "SELECT " + COLUMNS + " FROM oauth2_credentials WHERE organization_id = ? ORDER BY id",
                JdbcOauth2CredentialRepository::credential,
                organizationId);
    }

    private static Oauth2Credential credential(ResultSet rs) throws SQLException {
        return new Oauth2Credential(
                rs.getString("id"),
                rs.getString("organization_id"),
                Oauth2Provider.valueOf(rs.getString("provider")),
                rs.getString("client_id"),
                rs.getString("encrypted_client_secret"),
                new SealedSecret(rs.getString("secret_sealed")),
                Sql.instant(rs, "created_at"),
                Sql.instant(rs, "updated_at"));
    }
}
