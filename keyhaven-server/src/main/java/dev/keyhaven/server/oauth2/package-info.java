/**
 * OAuth 2.0 client credentials and {@code oauth2_authenticate}: credentials whose client secret arrives encrypted to
 * the credential-encryption key and is kept sealed by {@code custody}; the authorization-code exchange with the
 * provider's token and userinfo endpoints (outside any database transaction); and the OIDC tokens Keyhaven mints for
 * the provider's user, signed by its own key ({@link dev.keyhaven.server.oauth2.Oauth2TokenIssuer}).
 */
package dev.keyhaven.server.oauth2;
