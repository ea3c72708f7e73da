package dev.keyhaven.server.authproxy;

import dev.keyhaven.server.oauth2.Oauth2Authenticator;
import dev.keyhaven.server.otp.RateLimiter;

/**
 * {@code /v1/oauth2_authenticate} ({@code {provider, authCode, redirectUri, codeVerifier, nonce, clientId}} →
 * {@code {oidcToken}}): exchanges the code with the provider through the configuration organization's OAuth 2.0
 * credential (read in a read transaction; the exchange runs outside any). Each client address has a budget of
 * OAuth sign-ins: each one calls the provider, and none is stamped.
 */
final class Oauth2AuthenticateEndpoint implements AuthProxyEndpoint {
    private final Oauth2Authenticator oauth2;
    private final RateLimiter perAddress;

    Oauth2AuthenticateEndpoint(Oauth2Authenticator oauth2, RateLimiter perAddress) {
        this.oauth2 = oauth2;
        this.perAddress = perAddress;
    }

    @Override
    public Object answer(AuthProxyRequest request) {
        perAddress.acquire(request.clientAddress(), "client address");
        return oauth2.proxyAuthenticate(request.config().organizationId(), request.body());
    }
}
