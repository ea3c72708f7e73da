/**
 * Sessions: a login registers the client's P-256 session key as an expiring API key of the user and returns a
 * session JWT (turnkey-api.md §1.5) issued by Nimbus through custody's {@code JwtIssuer} over the deployment's session
 * signer ({@code custody.BundleSigner}, role
 * {@code SESSION}; published at {@code /public/v1/discovery/session-signer}). Used by the OTP logins.
 */
package dev.keyhaven.server.session;
