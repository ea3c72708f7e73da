package dev.keyhaven.server.http;

import dev.keyhaven.server.activity.ActivityRegistry;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.authproxy.AuthProxyRoute;
import java.util.List;

/**
 * What the listeners serve, as their documentation is generated from it: the route table's operations, the
 * handlers' declarations of the activity types they accept, the discovery paths, the auth proxy's route table, and
 * the operator console's files (none when it is turned off).
 * The listeners register their routes from the same lists, so the documents cannot drift from the routing.
 */
record ApiDescription(
        List<Operation> operations,
        ActivityRegistry registry,
        List<String> discoveryPaths,
        List<AuthProxyRoute> authProxyRoutes,
        List<String> consolePaths) {
    /** Where the API listener serves its own OpenAPI document (unauthenticated). */
    static final String OPENAPI_PATH = "/public/v1/openapi.json";
    /** The Prometheus scrape endpoint. */
    static final String METRICS_PATH = "/metrics";
    /** The short pointer to the documentation. */
    static final String ROOT_PATH = "/";

    ApiDescription {
        operations = List.copyOf(operations);
        discoveryPaths = List.copyOf(discoveryPaths);
        authProxyRoutes = List.copyOf(authProxyRoutes);
        consolePaths = List.copyOf(consolePaths);
    }

    /** The declaration of a submit operation's handler. */
    ActivitySpec spec(Operation submit) {
        return registry.forOperation(submit.name()).orElseThrow().spec();
    }
}
