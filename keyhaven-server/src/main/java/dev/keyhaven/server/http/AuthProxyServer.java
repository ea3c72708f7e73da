package dev.keyhaven.server.http;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.authproxy.AuthProxy;
import dev.keyhaven.server.authproxy.AuthProxyConfig;
import dev.keyhaven.server.authproxy.AuthProxyRoute;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The auth proxy's listener: every path of the auth proxy's route table ({@code authproxy.AuthProxyRoutes}) as a
 * {@code POST} (no stamp; the {@code X-Auth-Proxy-Config-Id} header names the configuration) with its {@code OPTIONS}
 * preflight, and the health routes ({@link HealthRoutes}). Each request goes through the stages the API listener's
 * do ({@link JsonPipeline}: shutdown, in-flight count, bounded body, strict JSON, errors in the main API's shape,
 * metrics and the log line, as {@code auth_proxy/<name>}); between them, {@link AuthProxy} admits it (configuration,
 * origin, captcha) and the route's endpoint answers. A rate limit is a 429 with {@code Retry-After}.
 */
public final class AuthProxyServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AuthProxyServer.class);
    static final String CONFIG_HEADER = "X-Auth-Proxy-Config-Id";
    static final String CAPTCHA_HEADER = "X-Captcha-Token";

    private final SupervisedListener listener;
    private final AtomicBoolean ready;
    private final JsonPipeline pipeline;
    private final Set<ServedRoutes.Route> routes;

    private AuthProxyServer(
            SupervisedListener listener, AtomicBoolean ready, JsonPipeline pipeline, Set<ServedRoutes.Route> routes) {
        this.listener = listener;
        this.ready = ready;
        this.pipeline = pipeline;
        this.routes = routes;
    }

    /** Listener settings: where, the body bound, the shutdown grace period and the connections' limits. */
    public record Settings(
            String host, int port, int maxBodyBytes, Duration shutdownGrace, ConnectionLimits connections) {}

    public static AuthProxyServer start(
            Settings settings, AuthProxy proxy, ObjectMapper json, HttpMetrics metrics, Readiness readiness) {
        AtomicBoolean ready = new AtomicBoolean(false);
        JsonPipeline pipeline = new JsonPipeline(json, metrics, settings.maxBodyBytes(), ready::get);
        HttpRouting.Builder routing = HttpRouting.builder();
        ServedRoutes routes = new ServedRoutes(routing);
        for (AuthProxyRoute route : proxy.routes()) {
            routes.post(
                    route.path(),
                    (req, res) -> pipeline.run(
                            "auth_proxy/" + route.name(),
                            req,
                            res,
                            (request, response) -> {},
                            log -> answer(route, proxy, pipeline, req, res)));
            routes.options(route.path(), AuthProxyServer::preflight);
        }
        HealthRoutes.register(routes, ready::get, readiness);
        ErrorBodies errors = pipeline.errors();
        routing.any((req, res) -> {
            res.status(404);
            res.header(HeaderNames.CONTENT_TYPE, ApiEndpoint.JSON);
            ResponseBodies.send(
                    req,
                    res,
                    errors.render(new ApiException(ErrorCode.UNKNOWN_OPERATION, "unknown auth proxy operation")));
        });
        SupervisedListener listener = SupervisedListener.start(new SupervisedListener.Definition(
                "auth proxy",
                "--bind, --auth-proxy-port",
                settings.host(),
                settings.port(),
                settings.shutdownGrace(),
                settings.maxBodyBytes(),
                settings.connections(),
                errors,
                routing));
        ready.set(true);
        LOG.atInfo().addKeyValue("captcha", proxy.captchaDescription()).log("auth proxy captcha tokens");
        return new AuthProxyServer(listener, ready, pipeline, routes.routes());
    }

    /**
     * Admits the request, then reads its body and lets the route's endpoint answer it. The browser's origin is
     * echoed only once its configuration allows it.
     */
    private static byte[] answer(
            AuthProxyRoute route, AuthProxy proxy, JsonPipeline pipeline, ServerRequest req, ServerResponse res) {
        Optional<String> origin = req.headers().first(HeaderNames.ORIGIN);
        AuthProxyConfig config = proxy.admit(req.headers().first(HeaderNames.create(CONFIG_HEADER)), origin);
        origin.ifPresent(o -> {
            res.header(HeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, o);
            res.header(HeaderNames.VARY, "Origin");
        });
        Params body = Params.of(object(pipeline, pipeline.body(req, res)), "");
        Object answer = proxy.answer(
                route, config, body, clientAddress(req), req.headers().first(HeaderNames.create(CAPTCHA_HEADER)));
        return pipeline.serialise(answer);
    }

    public int port() {
        return listener.port();
    }

    /** Every method and path this listener routes (its fallback aside). */
    Set<ServedRoutes.Route> routes() {
        return routes;
    }

    private static String clientAddress(ServerRequest req) {
        SocketAddress address = req.remotePeer().address();
        return address instanceof InetSocketAddress inet ? inet.getAddress().getHostAddress() : address.toString();
    }

    /**
     * The body's JSON object. No body at all is {@code {}}: the wallet kit posts {@code wallet_kit_config} and
     * {@code wallet_kit_client_params} without one.
     */
    private static JsonNode object(JsonPipeline pipeline, byte[] body) {
        JsonNode node = pipeline.parse(body.length == 0 ? EMPTY_OBJECT : body);
        if (!node.isObject()) {
            throw ApiException.badRequest("bad request body: a JSON object is required");
        }
        return node;
    }

    private static final byte[] EMPTY_OBJECT = {'{', '}'};

    /** Preflights are answered for any origin: the actual request is checked against its configuration. */
    private static void preflight(ServerRequest req, ServerResponse res) {
        req.headers().first(HeaderNames.ORIGIN).ifPresent(o -> {
            res.header(HeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, o);
            res.header(HeaderNames.VARY, "Origin");
        });
        res.header(HeaderNames.ACCESS_CONTROL_ALLOW_METHODS, "POST, OPTIONS");
        res.header(HeaderNames.ACCESS_CONTROL_ALLOW_HEADERS, Cors.ALLOWED_HEADERS);
        res.header(HeaderNames.ACCESS_CONTROL_MAX_AGE, "600");
        res.status(204).send();
    }

    /**
     * Stops accepting requests and returns once in-flight requests have finished (or the shutdown grace period has
     * passed); a request that arrives meanwhile is answered 503 without being processed.
     */
    @Override
    public void close() {
        ready.set(false);
        listener.close();
        int abandoned = pipeline.inFlight();
        if (abandoned > 0) {
            LOG.atWarn()
                    .addKeyValue("inFlight", abandoned)
                    .log("auth proxy: shutdown grace period ran out while requests were still being handled");
        }
    }
}
