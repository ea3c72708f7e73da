/**
 * Passkeys (WebAuthn) with webauthn4j: verifying registrations (attestations) when authenticators are created
 * ({@link dev.keyhaven.server.webauthn.PasskeyRegistrar}), and {@code X-Stamp-WebAuthn} assertions whose challenge is
 * the hex SHA-256 of the request body ({@link dev.keyhaven.server.webauthn.PasskeyStampVerifier}). Which web origins
 * may run these ceremonies is configured ({@link dev.keyhaven.server.webauthn.AllowedOrigins}); the relying-party id
 * is learnt from each registration.
 */
package dev.keyhaven.server.webauthn;
