package dev.keyhaven.server.store;

import dev.keyhaven.server.tx.Tx;
import dev.keyhaven.server.webauthn.PasskeyRepository;
import dev.keyhaven.server.webauthn.StoredPasskey;
import java.util.Optional;

/** Passkeys by credential id across organizations, for verifying {@code X-Stamp-WebAuthn}. */
public final class JdbcPasskeyRepository implements PasskeyRepository {

    @Override
    public Optional<StoredPasskey> findByCredentialId(Tx tx, String credentialId) {
        return Sql.one(
                tx,
                "SELECT credential_id, public_key, public_key_cose, rp_id FROM authenticators "
                        + "WHERE credential_id = ? ORDER BY created_at, id LIMIT 1",
                rs -> new StoredPasskey(
                        rs.getString("credential_id"),
                        rs.getString("public_key"),
                        rs.getString("public_key_cose"),
                        rs.getString("rp_id")),
                credentialId);
    }

    /**
     * Reads the highest counter, then raises every lower one. Should a concurrent transaction raise them first, the
     * conditional update matches no row (PostgreSQL re-evaluates the condition after waiting for the row lock;
     * SQLite runs one writer at a time), so at most one of two requests with the same counter succeeds.
     */
    @Override
    public boolean advanceSignCount(Tx tx, String credentialId, long signCount) {
        long highest =
                Sql.count(tx, "SELECT MAX(sign_count) FROM authenticators WHERE credential_id = ?", credentialId);
        if (signCount <= highest) {
            return false;
        }
        return Sql.update(
                        tx,
                        "UPDATE authenticators SET sign_count = ? WHERE credential_id = ? AND sign_count < ?",
                        signCount,
                        credentialId,
                        signCount)
                > 0;
    }
}
