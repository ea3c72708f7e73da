/**
 * Signing in with an OIDC token: {@link dev.keyhaven.server.oauthlogin.OauthLogin} verifies the token (its nonce
 * binds the session key), finds the user holding an OAuth provider with the token's identity, uses the token up and
 * opens a session; shared by the {@code oauth_login} activity and the auth proxy's {@code /v1/oauth_login}.
 */
package dev.keyhaven.server.oauthlogin;
