package dev.keyhaven.server.auth;

import dev.keyhaven.server.api.Caller;
import java.util.Optional;

/**
 * A stamp whose signature over the request body checked out. {@code credentialKey} is what identifies the
 * credential in storage: the canonical (lowercase, compressed) public key for API keys, the base64url credential id
 * (no padding) for passkeys. Only API-key stamps name a {@link StampScheme}: a passkey's algorithm is fixed by the key
 * registered with it, so there is nothing for the caller to choose and nothing to check against the stored type.
 *
 * @param apiKeyScheme the {@code X-Stamp} scheme; present exactly when {@code kind} is {@link Kind#API_KEY}
 */
public record VerifiedStamp(Kind kind, String credentialKey, Optional<StampScheme> apiKeyScheme,
        Caller.StampRecord record) {

    public VerifiedStamp {
        if ((kind == Kind.API_KEY) != apiKeyScheme.isPresent()) {
            throw new IllegalArgumentException("an API-key stamp, and only an API-key stamp, has an API-key scheme");
        }
    }

    /** A verified {@code X-Stamp}. */
    public static VerifiedStamp apiKey(StampScheme scheme, String canonicalPublicKey, Caller.StampRecord record) {
        return new VerifiedStamp(Kind.API_KEY, canonicalPublicKey, Optional.of(scheme), record);
    }

    /** A verified {@code X-Stamp-WebAuthn}, identified by the credential id (base64url without padding). */
    public static VerifiedStamp passkey(String credentialId, Caller.StampRecord record) {
        return new VerifiedStamp(Kind.WEBAUTHN, credentialId, Optional.empty(), record);
    }

    /** Which family of credentials signed. */
    public enum Kind {
        API_KEY,
        WEBAUTHN
    }
}
