package dev.keyhaven.server.authproxy;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code /v1/wallet_kit_config} (no body, or {@code {}}) → what {@code @turnkey/react-wallet-kit} builds its login
 * screen from, in the real service's {@code v1GetWalletKitConfigResponse} shape: {@code enabledProviders} (always an
 * array: the kit reads it without a null check), {@code sessionExpirationSeconds} and {@code otpLength} as strings,
 * {@code otpAlphanumeric}, {@code organizationId}, {@code oauthClientIds} and {@code oauthRedirectUrl} when set. The
 * kit renders {@code otpLength} boxes, so it is the length of the codes this configuration sends.
 */
final class WalletKitConfigEndpoint implements AuthProxyEndpoint {
    @Override
    public Object answer(AuthProxyRequest request) {
        AuthProxyConfig config = request.config();
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("enabledProviders", config.loginMethods());
        answer.put("sessionExpirationSeconds", Long.toString(config.sessionExpirationSeconds()));
        answer.put("organizationId", config.organizationId());
        answer.put("oauthClientIds", config.oauthClientIds());
        config.oauthRedirectUrl().ifPresent(url -> answer.put("oauthRedirectUrl", url));
        answer.put("otpAlphanumeric", config.alphanumeric());
        answer.put("otpLength", Integer.toString(config.otpLength()));
        return answer;
    }
}
