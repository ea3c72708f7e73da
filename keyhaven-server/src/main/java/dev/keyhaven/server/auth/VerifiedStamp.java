package dev.keyhaven.server.auth;

import dev.keyhaven.server.api.Caller;

/**
 * A stamp whose signature over the request body checked out. {@code credentialKey} is what identifies the
 * credential in storage: the canonical (lowercase, compressed) public key for API keys, the base64url credential id
 * for passkeys.
 */
public record VerifiedStamp(Kind kind, String credentialKey, StampScheme scheme, Caller.StampRecord record) {

    /** Which family of credentials signed. */
    public enum Kind {
        API_KEY,
        WEBAUTHN
    }
}
