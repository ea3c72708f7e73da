package dev.keyhaven.server.user;

import java.time.Instant;
import java.util.Optional;

/**
 * An API key: a public key whose private half stamps requests on behalf of its user.
 *
 * @param publicKey canonical hex: compressed SEC1 for ECDSA curves, raw 32 bytes for Ed25519
 * @param credentialType the {@code CREDENTIAL_TYPE_*} it is listed with: its curve's, or the kind of sign-in that
 *        issued it ({@link SignInKeyType})
 * @param expirationSeconds the lifetime requested at creation, for an expiring key
 * @param expiresAt when an expiring key stops authenticating
 */
public record ApiKey(
        String id,
        String organizationId,
        String userId,
        String name,
        String publicKey,
        ApiKeyCurve curve,
        String credentialType,
        Optional<Long> expirationSeconds,
        Optional<Instant> expiresAt,
        Instant createdAt,
        Instant updatedAt) {

    public boolean isExpiring() {
        return expiresAt.isPresent();
    }
}
