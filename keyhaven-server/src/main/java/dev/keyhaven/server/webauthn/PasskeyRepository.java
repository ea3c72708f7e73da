package dev.keyhaven.server.webauthn;

import dev.keyhaven.server.tx.Tx;
import java.util.Optional;

/**
 * The passkey lookups a stamp needs before the caller's organization is known. A credential id names one credential
 * on one authenticator, so every registration of it (one per organization at most) carries the same public key and
 * rpId; any of them can verify the stamp, and caller resolution later picks the right organization.
 */
public interface PasskeyRepository {

    /** A registration of the credential, in any organization. */
    Optional<StoredPasskey> findByCredentialId(Tx tx, String credentialId);

    /**
     * Raises the stored signature counter of every registration of the credential to {@code signCount}, provided it
     * is higher than each of them; a concurrent call with the same or a lower value must then fail. Returns whether
     * the counter advanced.
     */
    boolean advanceSignCount(Tx tx, String credentialId, long signCount);
}
