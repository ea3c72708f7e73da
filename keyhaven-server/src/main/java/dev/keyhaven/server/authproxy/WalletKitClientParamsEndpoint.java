package dev.keyhaven.server.authproxy;

import java.util.Map;

/**
 * {@code /v1/wallet_kit_client_params} (no body, or {@code {}}) → {@code {turnstileSiteKey}} when this configuration
 * enables captchas and the deployment verifies them (the kit then renders the Turnstile widget and sends its token
 * as {@code X-Captcha-Token}), else {@code {}}.
 */
final class WalletKitClientParamsEndpoint implements AuthProxyEndpoint {
    private final CaptchaVerifier captcha;

    WalletKitClientParamsEndpoint(CaptchaVerifier captcha) {
        this.captcha = captcha;
    }

    @Override
    public Object answer(AuthProxyRequest request) {
        if (!request.config().captchaEnabled()) {
            return Map.of();
        }
        return captcha.siteKey().map(key -> Map.of("turnstileSiteKey", key)).orElseGet(Map::of);
    }
}
