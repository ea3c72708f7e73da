package dev.keyhaven.server.http;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.JsonBody;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.authproxy.AuthProxy;
import dev.keyhaven.server.authproxy.AuthProxyConfig;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The auth proxy's listener: {@code POST /v1/otp_init(_v2)}, {@code /v1/otp_verify(_v2)}, {@code /v1/otp_login(_v2)},
 * {@code /v1/oauth2_authenticate}
 * (no stamp; the {@code X-Auth-Proxy-Config-Id} header names the configuration), their {@code OPTIONS} preflights,
 * and the health routes ({@link HealthRoutes}). Errors are JSON in the main API's shape; a rate limit is a 429
 * with {@code Retry-After}.
 */
public final class AuthProxyServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AuthProxyServer.class);
    static final String CONFIG_HEADER = "X-Auth-Proxy-Config-Id";
    /** Every operation is served at this prefix and its name. */
    static final String PATH_PREFIX = "/v1/";
    /** The operations served: each versioned one under its name and with {@code _v2}, then the unversioned. */
    static final List<String> OPERATIONS = Stream.concat(
                    AuthProxy.OPERATIONS.stream().flatMap(base -> Stream.of(base, base + "_v2")),
                    AuthProxy.UNVERSIONED_OPERATIONS.stream())
            .toList();

    private final SupervisedListener listener;
    private final AtomicBoolean ready;
    private final Set<ServedRoutes.Route> routes;

    private AuthProxyServer(SupervisedListener listener, AtomicBoolean ready, Set<ServedRoutes.Route> routes) {
        this.listener = listener;
        this.ready = ready;
        this.routes = routes;
    }

    /** Listener settings: where, the body bound, the shutdown grace period and the connections' limits. */
    public record Settings(
            String host, int port, int maxBodyBytes, Duration shutdownGrace, ConnectionLimits connections) {}

    public static AuthProxyServer start(
            Settings settings, AuthProxy proxy, ObjectMapper json, HttpMetrics metrics, Readiness readiness) {
        ErrorBodies errors = new ErrorBodies(json);
        AtomicBoolean ready = new AtomicBoolean(false);
        HttpRouting.Builder routing = HttpRouting.builder();
        ServedRoutes routes = new ServedRoutes(routing);
        for (String operation : OPERATIONS) {
            String path = PATH_PREFIX + operation;
            routes.post(path, (req, res) -> handle(operation, req, res, settings, proxy, json, errors, metrics, ready));
            routes.options(path, AuthProxyServer::preflight);
        }
        HealthRoutes.register(routes, ready::get, readiness);
        routing.any((req, res) -> send(
                req,
                res,
                errors.render(new ApiException(ErrorCode.UNKNOWN_OPERATION, "unknown auth proxy operation")),
                404));
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
        return new AuthProxyServer(listener, ready, routes.routes());
    }

    public int port() {
        return listener.port();
    }

    /** Every method and path this listener routes (its fallback aside). */
    Set<ServedRoutes.Route> routes() {
        return routes;
    }

    private static void handle(
            String operation,
            ServerRequest req,
            ServerResponse res,
            Settings settings,
            AuthProxy proxy,
            ObjectMapper json,
            ErrorBodies errors,
            HttpMetrics metrics,
            AtomicBoolean ready) {
        long started = System.nanoTime();
        int status = 500;
        try {
            if (!ready.get()) {
                throw new ApiException(ErrorCode.UNAVAILABLE, "the server is shutting down");
            }
            Optional<String> origin = req.headers().first(HeaderNames.ORIGIN);
            AuthProxyConfig config = proxy.admit(req.headers().first(HeaderNames.create(CONFIG_HEADER)), origin);
            origin.ifPresent(o -> {
                res.header(HeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, o);
                res.header(HeaderNames.VARY, "Origin");
            });
            Params body = Params.of(parse(json, RequestBody.read(req, res, settings.maxBodyBytes())), "");
            byte[] payload = json.writeValueAsBytes(proxy.handle(config, operation, body, clientAddress(req)));
            status = 200;
            send(req, res, payload, 200);
        } catch (CloseConnectionException e) {
            // No answer can be written (the body's deadline passed, the client left): Helidon closes quietly.
            status = e instanceof ConnectionAbandoned abandoned ? abandoned.loggedStatus() : 499;
            throw e;
        } catch (ApiException e) {
            status = e.code().httpStatus();
            e.retryAfterSeconds().ifPresent(s -> res.header(HeaderNames.RETRY_AFTER, Long.toString(s)));
            send(req, res, errors.render(e), status);
        } catch (RuntimeException e) {
            String incident = UUID.randomUUID().toString();
            LOG.atError()
                    .setCause(e)
                    .addKeyValue("op", operation)
                    .addKeyValue("incident", incident)
                    .log("auth proxy request failed");
            send(
                    req,
                    res,
                    errors.render(new ApiException(ErrorCode.INTERNAL, "internal server error (" + incident + ")")),
                    500);
        } finally {
            long elapsed = System.nanoTime() - started;
            metrics.request("auth_proxy_" + operation, status, elapsed);
            LOG.atInfo()
                    .addKeyValue("op", "auth_proxy/" + operation)
                    .addKeyValue("status", status)
                    .addKeyValue("ms", String.format(java.util.Locale.ROOT, "%.2f", elapsed / 1e6))
                    .log("request");
        }
    }

    private static String clientAddress(ServerRequest req) {
        SocketAddress address = req.remotePeer().address();
        return address instanceof InetSocketAddress inet ? inet.getAddress().getHostAddress() : address.toString();
    }

    private static JsonNode parse(ObjectMapper json, byte[] body) {
        JsonNode node = JsonBody.parse(json, body);
        if (!node.isObject()) {
            throw ApiException.badRequest("bad request body: a JSON object is required");
        }
        return node;
    }

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

    private static void send(ServerRequest req, ServerResponse res, byte[] payload, int status) {
        res.status(status);
        res.header(HeaderNames.CONTENT_TYPE, ApiEndpoint.JSON);
        ResponseBodies.send(req, res, payload);
    }

    @Override
    public void close() {
        ready.set(false);
        listener.close();
    }
}
