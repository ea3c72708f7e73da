package dev.keyhaven.server.authproxy;

/**
 * One endpoint of the auth proxy: answers an admitted request (its answer is serialised as the response's JSON
 * body) or throws an {@link dev.keyhaven.server.api.ApiException}. Endpoints know nothing of HTTP: the listener
 * reads, admits and answers ({@code http.AuthProxyServer}); {@link AuthProxyRoutes} says which path runs which.
 */
@FunctionalInterface
public interface AuthProxyEndpoint {
    Object answer(AuthProxyRequest request);
}
