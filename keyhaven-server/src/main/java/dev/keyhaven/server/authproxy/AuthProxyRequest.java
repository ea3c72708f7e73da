package dev.keyhaven.server.authproxy;

import dev.keyhaven.server.api.Params;

/**
 * One admitted auth proxy request, as its endpoint sees it: the configuration {@code X-Auth-Proxy-Config-Id} named
 * (it exists and allows the request's origin), the body (a flat JSON object: its fields' paths are their names,
 * {@code verificationToken} rather than the main API's {@code parameters.verificationToken}; an empty body is
 * {@code {}}), and the client's address (what per-address rate limits count).
 */
public record AuthProxyRequest(AuthProxyConfig config, Params body, String clientAddress) {}
