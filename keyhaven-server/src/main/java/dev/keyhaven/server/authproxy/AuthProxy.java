package dev.keyhaven.server.authproxy;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Params;
import java.util.List;
import java.util.Optional;

/**
 * The auth proxy's admission, before any endpoint runs: the configuration the request names exists (404; none named
 * is a 400), the browser's {@code Origin} is one it allows (403), and, on the paths that take one, the captcha token
 * is accepted when the deployment verifies captchas and the configuration enables them ({@link CaptchaVerifier}).
 * Then the route's endpoint answers ({@link AuthProxyRoutes}).
 */
public final class AuthProxy {
    private final AuthProxyConfigs configs;
    private final CaptchaVerifier captcha;
    private final List<AuthProxyRoute> routes;

    AuthProxy(AuthProxyConfigs configs, CaptchaVerifier captcha, List<AuthProxyRoute> routes) {
        this.configs = configs;
        this.captcha = captcha;
        this.routes = List.copyOf(routes);
    }

    /** Every path the auth proxy serves, in the route table's order. */
    public List<AuthProxyRoute> routes() {
        return routes;
    }

    /** The configuration ids with their organizations, for the start-up announcement. */
    public List<AuthProxyConfig> configurations() {
        return configs.all();
    }

    /** How captcha tokens are treated, for the start-up log. */
    public String captchaDescription() {
        return captcha.describe();
    }

    /**
     * Checks the configuration and the origin: the configuration, or a 400 (no id), 404 (unknown id) or 403
     * (origin not allowed).
     */
    public AuthProxyConfig admit(Optional<String> configId, Optional<String> origin) {
        String id = configId.filter(s -> !s.isBlank())
                .orElseThrow(() -> ApiException.badRequest("the X-Auth-Proxy-Config-Id header is required"));
        AuthProxyConfig config = configs.require(id);
        if (origin.isPresent() && !config.allows(origin.get())) {
            throw new ApiException(
                    ErrorCode.REQUEST_NOT_AUTHORIZED,
                    "origin " + origin.get() + " is not allowed by this auth proxy config");
        }
        return config;
    }

    /**
     * Answers an admitted request on {@code route}: its captcha first where one is due, then its endpoint.
     *
     * @param captchaToken the {@code X-Captcha-Token} header
     */
    public Object answer(
            AuthProxyRoute route,
            AuthProxyConfig config,
            Params body,
            String clientAddress,
            Optional<String> captchaToken) {
        if (route.captcha() && config.captchaEnabled() && captcha.enabled()) {
            captcha.verify(captchaToken, clientAddress);
        }
        return route.endpoint().answer(new AuthProxyRequest(config, body, clientAddress));
    }
}
