package dev.keyhaven.server.authproxy;

/**
 * One path of the auth proxy ({@code POST}, and its {@code OPTIONS} preflight): the endpoint that answers it, the
 * class that implements it (what docs/operations.md links to), and whether the path takes a captcha token
 * ({@code X-Captcha-Token}), checked before the endpoint runs when the deployment verifies captchas and the
 * configuration enables them.
 */
public record AuthProxyRoute(String path, Class<?> implementation, boolean captcha, AuthProxyEndpoint endpoint) {
    /** Every path is served under this prefix. */
    public static final String PREFIX = "/v1/";

    public AuthProxyRoute {
        if (!path.startsWith(PREFIX)) {
            throw new IllegalArgumentException("auth proxy paths start with " + PREFIX + ": " + path);
        }
    }

    static AuthProxyRoute of(String path, Class<?> implementation, AuthProxyEndpoint endpoint) {
        return new AuthProxyRoute(path, implementation, false, endpoint);
    }

    /** A path the official clients send a captcha token to (OTP init, sign-up). */
    static AuthProxyRoute captchaGuarded(String path, Class<?> implementation, AuthProxyEndpoint endpoint) {
        return new AuthProxyRoute(path, implementation, true, endpoint);
    }

    /** The path without {@code /v1/}: the name in the request log, the metrics and the OpenAPI operation id. */
    public String name() {
        return path.substring(PREFIX.length());
    }
}
