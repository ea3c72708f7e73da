package dev.keyhaven.server.webauthn;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.tx.Transactor;

/**
 * Keycloak's signature-counter rule. An authenticator that counts must present a counter above the highest one seen,
 * which exposes a cloned authenticator and a replayed assertion; the new value is stored in its own write transaction,
 * conditionally, so two requests racing with the same counter cannot both pass. An authenticator that does not count
 * always presents 0 (every synced passkey: Apple, Google, 1Password…), and is neither checked nor written.
 */
final class SignCounterRule {
    private final Transactor transactor;
    private final PasskeyRepository passkeys;

    SignCounterRule(Transactor transactor, PasskeyRepository passkeys) {
        this.transactor = transactor;
        this.passkeys = passkeys;
    }

    /**
     * Accepts {@code presented}, the counter of a verified assertion, and records it.
     *
     * @throws ApiException (401) when the authenticator counts and the counter did not increase
     */
    void accept(String credentialId, long presented) {
        if (presented == 0) {
            return;
        }
        boolean advanced = transactor.write(tx -> passkeys.advanceSignCount(tx, credentialId, presented));
        if (!advanced) {
            throw new ApiException(
                    ErrorCode.SIGNATURE_INVALID,
                    "could not verify WebAuthN signature: the "
                            + "authenticator's signature counter did not increase (a replayed assertion or a cloned "
                            + "authenticator)");
        }
    }
}
