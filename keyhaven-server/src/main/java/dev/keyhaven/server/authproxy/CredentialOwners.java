package dev.keyhaven.server.authproxy;

import dev.keyhaven.server.tx.Tx;
import java.util.Optional;

/**
 * Which organization's user holds a credential, among an organization and its direct sub-organizations: what
 * {@code /v1/account} answers for {@code PUBLIC_KEY} and {@code CREDENTIAL_ID}. The wiring implements it with the
 * directory that resolves stamps, so a lookup finds exactly the credentials a stamp would.
 */
@FunctionalInterface
public interface CredentialOwners {
    /** A credential's kind, as its key is stored. */
    enum Kind {
        /** An API key, by its canonical public key (lowercase hex, compressed where the curve has a form). */
        API_KEY,
        /** A passkey, by its credential id (base64url without padding). */
        PASSKEY
    }

    Optional<String> organizationHolding(Tx tx, String organizationId, Kind kind, String key);
}
