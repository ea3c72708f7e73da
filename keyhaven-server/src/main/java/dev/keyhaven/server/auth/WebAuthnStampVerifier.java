package dev.keyhaven.server.auth;

/**
 * Verifies {@code X-Stamp-WebAuthn}: a passkey assertion whose challenge is the lowercase hex SHA-256 of the body.
 * The credential's public key comes from storage, so the implementation looks the authenticator up by its
 * credential id before verifying.
 */
@FunctionalInterface
public interface WebAuthnStampVerifier {

    /**
     * @throws dev.keyhaven.server.api.ApiException (401) when the stamp is malformed, names no registered
     *         authenticator, or does not verify
     */
    VerifiedStamp verify(String headerValue, byte[] body);
}
