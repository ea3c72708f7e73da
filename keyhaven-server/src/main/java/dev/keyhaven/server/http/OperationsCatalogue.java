package dev.keyhaven.server.http;

import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.authproxy.AuthProxy;
import dev.keyhaven.server.authproxy.AuthProxyRoutes;
import java.util.stream.Collectors;

/**
 * {@code docs/operations.md}: every wire name Keyhaven answers to (query, submit operation, activity type, auth-proxy
 * endpoint, other path) and the class that implements it, generated from {@link ApiDescription} like the OpenAPI
 * document, so that it cannot go stale unnoticed (a test compares the committed file with this).
 */
final class OperationsCatalogue {
    /** Where the sources of the server's classes are, from the repository's root. */
    static final String SOURCES = "keyhaven-server/src/main/java/";
    /** The command that rewrites docs/operations.md and docs/openapi.json from the code. */
    static final String REGENERATE = "./mvnw -pl keyhaven-server -am verify -Dtest=none -Dit.test=ApiDocumentsIT "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Dkeyhaven.docs.write=true";

    private OperationsCatalogue() {}

    static String render(ApiDescription api) {
        StringBuilder out = new StringBuilder();
        out.append("# Operations and the code behind them\n\n");
        out.append("<!-- Generated from the route table and the activity handlers' declarations (OperationsCatalogue); "
                        + "do not edit by hand. After changing a route or a handler, regenerate this file and "
                        + "docs/openapi.json with:\n     ")
                .append(REGENERATE)
                .append("\n-->\n\n");
        out.append("Every wire name Keyhaven answers to, and the class that implements it. The same routes, with "
                + "their request envelopes, authentication and error body, are described in OpenAPI 3.1 at "
                + "[openapi.json](openapi.json), which the server also serves at `GET "
                + ApiDescription.OPENAPI_PATH + "`. The route table itself is "
                + link(Routes.class) + ".\n\n");

        out.append("## Queries: `POST /public/v1/query/<name>`\n\n");
        out.append("Queries marked (Keyhaven's own) are not part of Turnkey's API.\n\n");
        out.append("| query | implemented by |\n|---|---|\n");
        api.operations().stream()
                .filter(o -> o.kind() == Operation.Kind.QUERY)
                .forEach(query -> out.append("| `")
                        .append(query.name())
                        .append(query.keyhavenOnly() ? "` (Keyhaven's own) | " : "` | ")
                        .append(link(query.implementation()))
                        .append(" |\n"));

        out.append("\n## Activities: `POST /public/v1/submit/<name>`\n\n");
        out.append("Each operation accepts the activity types listed, the current version first.\n\n");
        out.append("| operation | activity types | handler |\n|---|---|---|\n");
        api.operations().stream().filter(o -> o.kind() == Operation.Kind.SUBMIT).forEach(submit -> {
            ActivitySpec spec = api.spec(submit);
            out.append("| `")
                    .append(submit.name())
                    .append("` | ")
                    .append(spec.versions().stream()
                            .map(v -> "`" + v.type().wireName() + "`")
                            .collect(Collectors.joining("<br>")))
                    .append(" | ")
                    .append(link(submit.implementation()))
                    .append(" |\n");
        });

        out.append("\n## Auth proxy: `POST /v1/<name>` on its own listener (`--auth-proxy-port`)\n\n");
        out.append("The route table is ")
                .append(link(AuthProxyRoutes.class))
                .append("; served by ")
                .append(link(AuthProxyServer.class))
                .append(", admitted by ")
                .append(link(AuthProxy.class))
                .append(" (configuration, origin, captcha). Endpoints marked (captcha) take `X-Captcha-Token`.\n\n");
        out.append("| endpoint | implemented by |\n|---|---|\n");
        api.authProxyRoutes()
                .forEach(route -> out.append("| `")
                        .append(route.name())
                        .append("`")
                        .append(route.captcha() ? " (captcha)" : "")
                        .append(" | ")
                        .append(link(route.implementation()))
                        .append(" |\n"));

        out.append("\n## Other paths\n\n");
        out.append("| path | served by |\n|---|---|\n");
        row(out, "GET " + ApiDescription.ROOT_PATH, ApiServer.class);
        row(out, "GET " + ApiDescription.OPENAPI_PATH, OpenApiDocument.class);
        api.discoveryPaths().forEach(path -> row(out, "GET " + path, ApiServer.class));
        HealthRoutes.PATHS.forEach(path -> row(out, "GET " + path, HealthRoutes.class));
        row(out, "GET " + ApiDescription.METRICS_PATH, ApiServer.class);
        out.append("\nThe health paths are served on both listeners. Every `GET` path answers `HEAD` alike, and "
                + "every `POST` path answers its CORS preflight (`OPTIONS`).\n");
        return out.toString();
    }

    /** The repository-relative source file of {@code type} (its top-level class's). */
    static String sourcePath(Class<?> type) {
        Class<?> topLevel = type;
        while (topLevel.getEnclosingClass() != null) {
            topLevel = topLevel.getEnclosingClass();
        }
        return SOURCES + topLevel.getName().replace('.', '/') + ".java";
    }

    private static void row(StringBuilder out, String path, Class<?> type) {
        out.append("| `").append(path).append("` | ").append(link(type)).append(" |\n");
    }

    /** A link from docs/ to the source file, showing its path from the repository's root. */
    private static String link(Class<?> type) {
        String path = sourcePath(type);
        return "[" + path + "](../" + path + ")";
    }
}
