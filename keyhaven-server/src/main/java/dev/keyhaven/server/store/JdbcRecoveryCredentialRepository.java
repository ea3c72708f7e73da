package dev.keyhaven.server.store;

import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.recovery.RecoveryCredentialRepository;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;

/** Recovery credentials: API-key rows of type {@code CREDENTIAL_TYPE_RECOVER_USER_KEY_P256}. */
public final class JdbcRecoveryCredentialRepository implements RecoveryCredentialRepository {
    private static final String NAME = "Email recovery credential";

    @Override
    public void insert(
            Tx tx,
            String organizationId,
            String userId,
            String credentialId,
            String publicKeyHex,
            long expirationSeconds,
            Instant expiresAt,
            Instant now) {
        Sql.update(
                tx,
                "INSERT INTO api_keys (id, organization_id, user_id, name, public_key, curve, credential_type, "
                        + "expiration_seconds, expires_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                credentialId,
                organizationId,
                userId,
                NAME,
                publicKeyHex,
                "API_KEY_CURVE_P256",
                Caller.RECOVERY_CREDENTIAL_TYPE,
                expirationSeconds,
                expiresAt,
                now,
                now);
    }

    @Override
    public void deleteAll(Tx tx, String organizationId, String userId) {
        Sql.update(
                tx,
                "DELETE FROM api_keys WHERE organization_id = ? AND user_id = ? AND credential_type = ?",
                organizationId,
                userId,
                Caller.RECOVERY_CREDENTIAL_TYPE);
    }
}
