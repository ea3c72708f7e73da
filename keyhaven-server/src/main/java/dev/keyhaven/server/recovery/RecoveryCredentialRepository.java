package dev.keyhaven.server.recovery;

import dev.keyhaven.server.tx.Tx;
import java.time.Instant;

/**
 * Storage of recovery credentials. They are API-key rows of type {@code CREDENTIAL_TYPE_RECOVER_USER_KEY_P256}, so a
 * stamp with one resolves to its user like any API key (expiry included), and the request pipeline lets them stamp
 * {@code recover_user} only.
 */
public interface RecoveryCredentialRepository {

    void insert(
            Tx tx,
            String organizationId,
            String userId,
            String credentialId,
            String publicKeyHex,
            long expirationSeconds,
            Instant expiresAt,
            Instant now);

    /** Deletes every recovery credential of the user (a new one replaces them; recovery uses them up). */
    void deleteAll(Tx tx, String organizationId, String userId);
}
