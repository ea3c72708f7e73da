package dev.keyhaven.server.http;

import io.helidon.http.HeaderNames;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The operator console ({@code docs/console.md}): static files from the jar's {@code console/} resources, each on
 * its own exact path under {@code /console}, read once at start. The page holds its API key in the browser and
 * stamps every request itself, so these routes serve only public files and need no authentication. Every answer
 * carries a Content-Security-Policy that allows nothing but this origin's own files: no inline script, no
 * {@code eval}, no framing, no form posts.
 */
final class ConsoleRoutes {
    /** The page itself. */
    static final String PAGE = "/console";

    /** Scripts, styles and fetches from this origin only; {@code data:} images only; never framed. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
            + "form-action 'none'";

    /** One file: where it is served, its resource under {@code console/}, its media type. */
    record Asset(String path, String resource, String contentType) {}

    private static final String JAVASCRIPT = "text/javascript; charset=utf-8";

    static final List<Asset> ASSETS = List.of(
            new Asset(PAGE, "index.html", "text/html; charset=utf-8"),
            new Asset("/console/console.css", "console.css", "text/css; charset=utf-8"),
            new Asset("/console/console.js", "console.js", JAVASCRIPT),
            new Asset("/console/dom.js", "dom.js", JAVASCRIPT),
            new Asset("/console/activities.js", "activities.js", JAVASCRIPT),
            new Asset("/console/policies.js", "policies.js", JAVASCRIPT),
            new Asset("/console/api.js", "api.js", JAVASCRIPT),
            new Asset("/console/stamp.js", "stamp.js", JAVASCRIPT),
            new Asset("/console/keystore.js", "keystore.js", JAVASCRIPT),
            new Asset("/console/passkey.js", "passkey.js", JAVASCRIPT),
            new Asset("/console/users.js", "users.js", JAVASCRIPT),
            new Asset("/console/actions.js", "actions.js", JAVASCRIPT),
            new Asset("/console/wallets.js", "wallets.js", JAVASCRIPT),
            new Asset("/console/privatekeys.js", "privatekeys.js", JAVASCRIPT),
            new Asset("/console/webhooks.js", "webhooks.js", JAVASCRIPT),
            new Asset("/console/organization.js", "organization.js", JAVASCRIPT),
            new Asset("/console/audit.js", "audit.js", JAVASCRIPT));

    /** Every path the console serves, in the order above. */
    static final List<String> PATHS = ASSETS.stream().map(Asset::path).toList();

    private static final Map<String, Asset> BY_PATH =
            ASSETS.stream().collect(Collectors.toUnmodifiableMap(Asset::path, Function.identity()));

    private ConsoleRoutes() {}

    /** The media type of the file served at {@code path}, one of {@link #PATHS}. */
    static String contentType(String path) {
        return BY_PATH.get(path).contentType();
    }

    /** Adds a GET (and HEAD) route per file; a file missing from the jar stops the start. */
    static void register(ServedRoutes routes) {
        for (Asset asset : ASSETS) {
            byte[] body = read(asset.resource());
            routes.get(asset.path(), (req, res) -> {
                res.header(HeaderNames.CONTENT_TYPE, asset.contentType());
                res.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
                res.header("X-Content-Type-Options", "nosniff");
                res.header("Referrer-Policy", "no-referrer");
                res.header("X-Frame-Options", "DENY");
                // Revalidated on every load, so that an upgraded server never runs with an older page's scripts.
                res.header(HeaderNames.CACHE_CONTROL, "no-cache");
                ResponseBodies.send(req, res, body);
            });
        }
    }

    private static byte[] read(String resource) {
        try (InputStream in = ConsoleRoutes.class.getResourceAsStream("/console/" + resource)) {
            if (in == null) {
                throw new IllegalStateException("the console file console/" + resource + " is missing from the jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the console file console/" + resource, e);
        }
    }
}
