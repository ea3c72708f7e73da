/**
 * Passkeys (WebAuthn) with webauthn4j: verifying registrations (attestations) when authenticators are created, and
 * {@code X-Stamp-WebAuthn} assertions whose challenge is the hex SHA-256 of the request body.
 */
package dev.keyhaven.server.webauthn;
