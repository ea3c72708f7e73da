package dev.keyhaven.server.http;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The health endpoints of a listener. {@code /health/live}: the process answers (200 while it runs, stopping
 * included: restarting it would not help). {@code /health/ready}, and {@code /health} with it: this listener
 * accepts requests and the database answers ({@link Readiness}); else 503 with a body that says what is not ready,
 * {@code {"status":"stopping"}} or {@code {"status":"unavailable","database":"unreachable"}}.
 */
final class HealthRoutes {
    private static final byte[] LIVE = bytes("{\"status\":\"ok\"}");
    private static final byte[] READY = bytes("{\"status\":\"ok\",\"database\":\"ok\"}");
    private static final byte[] STOPPING = bytes("{\"status\":\"stopping\"}");
    private static final byte[] DATABASE_UNREACHABLE =
            bytes("{\"status\":\"unavailable\",\"database\":" + "\"unreachable\"}");

    private HealthRoutes() {}

    /** The three paths, each answering GET and HEAD. */
    static final List<String> PATHS = List.of("/health/live", "/health/ready", "/health");

    /** Adds the three routes; {@code accepting} is false once the listener has begun to stop. */
    static void register(ServedRoutes routing, BooleanSupplier accepting, Readiness readiness) {
        // Registered as GET routes, so HEAD (what many monitors send) answers like GET without a body.
        routing.get("/health/live", (req, res) -> send(req, res, 200, LIVE));
        Handler ready = (req, res) -> {
            if (!accepting.getAsBoolean()) {
                send(req, res, 503, STOPPING);
            } else if (!readiness.databaseAnswers()) {
                send(req, res, 503, DATABASE_UNREACHABLE);
            } else {
                send(req, res, 200, READY);
            }
        };
        routing.get("/health/ready", ready);
        routing.get("/health", ready);
    }

    private static void send(ServerRequest req, ServerResponse res, int status, byte[] body) {
        res.status(status);
        res.header(HeaderNames.CONTENT_TYPE, ApiEndpoint.JSON);
        // Every probe must reach the server: a cached "ok" would hide an outage.
        res.header(HeaderNames.CACHE_CONTROL, "no-store");
        ResponseBodies.send(req, res, body);
    }

    private static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }
}
