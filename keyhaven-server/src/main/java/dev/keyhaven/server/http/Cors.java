package dev.keyhaven.server.http;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Cross-origin access for browser clients. Requests are authenticated by stamps, never by cookies, so allowing an
 * origin grants it nothing a stamp does not; the allowed origins are still configurable ({@code *} by default).
 */
final class Cors {
    static final String ALLOWED_HEADERS = "Content-Type, Accept, X-Stamp, X-Stamp-WebAuthn, X-Stamp-Attested, "
            + "X-Session, X-Client-Version, X-Auth-Proxy-Config-Id, X-Captcha-Token";
    private static final HeaderName ORIGIN = HeaderNames.ORIGIN;

    private final Set<String> origins;
    private final boolean any;

    Cors(List<String> allowedOrigins) {
        this.any = allowedOrigins.contains("*");
        this.origins = Set.copyOf(allowedOrigins);
    }

    /** Adds the allow-origin headers to a response when the request comes from an allowed origin. */
    void decorate(ServerRequest request, ServerResponse response) {
        allowedOrigin(request).ifPresent(origin -> {
            response.header(HeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, origin);
            response.header(HeaderNames.VARY, "Origin");
        });
    }

    /** Answers a preflight request. */
    void preflight(ServerRequest request, ServerResponse response) {
        decorate(request, response);
        response.header(HeaderNames.ACCESS_CONTROL_ALLOW_METHODS, "POST, GET, OPTIONS");
        response.header(HeaderNames.ACCESS_CONTROL_ALLOW_HEADERS, ALLOWED_HEADERS);
        response.header(HeaderNames.ACCESS_CONTROL_MAX_AGE, "600");
        response.status(204).send();
    }

    private Optional<String> allowedOrigin(ServerRequest request) {
        Optional<String> origin = request.headers().first(ORIGIN);
        if (origin.isEmpty()) {
            return Optional.empty();
        }
        if (any) {
            return Optional.of("*");
        }
        return origins.contains(origin.get()) ? origin : Optional.empty();
    }
}
