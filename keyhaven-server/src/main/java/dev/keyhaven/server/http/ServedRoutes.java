package dev.keyhaven.server.http;

import io.helidon.http.Method;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRouting;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A listener's routes as they are registered: each one goes to Helidon's routing and is remembered, so that what a
 * listener serves can be compared with what its OpenAPI document says it serves (Helidon's routing cannot be listed).
 */
final class ServedRoutes {
    /** One method on one exact path. */
    record Route(String method, String path) {}

    private final HttpRouting.Builder routing;
    private final Set<Route> routes = new LinkedHashSet<>();

    ServedRoutes(HttpRouting.Builder routing) {
        this.routing = routing;
    }

    void post(String path, Handler handler) {
        add(Method.POST, path, handler);
    }

    /** A CORS preflight. */
    void options(String path, Handler handler) {
        add(Method.OPTIONS, path, handler);
    }

    /** GET, and HEAD answered like it ({@link ResponseBodies}). */
    void get(String path, Handler handler) {
        add(Method.GET, path, handler);
        add(Method.HEAD, path, handler);
    }

    /** Every route registered so far, in registration order. */
    Set<Route> routes() {
        return Set.copyOf(routes);
    }

    private void add(Method method, String path, Handler handler) {
        if (!routes.add(new Route(method.text(), path))) {
            throw new IllegalStateException(method.text() + " " + path + " is registered twice");
        }
        routing.route(method, path, handler);
    }
}
