package dev.keyhaven.server.http;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.JsonBody;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The stages every JSON {@code POST} endpoint shares, on the API listener ({@link ApiEndpoint}) and the auth proxy's
 * ({@link AuthProxyServer}): a request that starts once shutdown has begun is answered 503 without being processed;
 * the requests being handled are counted (shutdown waits for them); the body is read bounded ({@link RequestBody})
 * and parsed strictly ({@link JsonBody}); every failure becomes a JSON error body ({@link ErrorBodies}: an
 * {@link ApiException} as itself, with {@code Retry-After} when it has one; anything else a 500 whose incident id is
 * logged with the cause); and each request is one metric and one log line (operation, organization, activity,
 * status, duration, and nothing of the body). What runs between reading and answering is the endpoint's
 * {@link Stage}.
 */
final class JsonPipeline {
    private static final Logger LOG = LoggerFactory.getLogger(JsonPipeline.class);

    private final ObjectMapper json;
    private final ErrorBodies errors;
    private final HttpMetrics metrics;
    private final int maxBodyBytes;
    private final BooleanSupplier accepting;
    private final AtomicInteger inFlight = new AtomicInteger();

    /** What an endpoint does with one request: the answer's JSON bytes, or an exception. */
    @FunctionalInterface
    interface Stage {
        byte[] answer(RequestLog log);
    }

    /** What the request log and the metrics report about one request; stages fill in what they learn. */
    static final class RequestLog {
        int status = 500;
        String organizationId = "-";
        String activityId = "-";
        String activityStatus = "-";
    }

    /**
     * @param accepting false once shutdown has begun
     */
    JsonPipeline(ObjectMapper json, HttpMetrics metrics, int maxBodyBytes, BooleanSupplier accepting) {
        this.json = json;
        this.errors = new ErrorBodies(json);
        this.metrics = metrics;
        this.maxBodyBytes = maxBodyBytes;
        this.accepting = accepting;
    }

    /** How many requests are being handled right now. */
    int inFlight() {
        return inFlight.get();
    }

    ErrorBodies errors() {
        return errors;
    }

    /** The request's body, bounded: 413 past the listener's limit, 400 when malformed. */
    byte[] body(ServerRequest request, ServerResponse response) {
        return RequestBody.read(request, response, maxBodyBytes);
    }

    /** The body's JSON (UTF-8 only, no duplicate keys): a 400 naming what is wrong otherwise. */
    JsonNode parse(byte[] body) {
        return JsonBody.parse(json, body);
    }

    /** The answer's JSON. */
    byte[] serialise(Object answer) {
        return json.writeValueAsBytes(answer);
    }

    /**
     * Runs {@code stage} for one request of {@code operation} (its name in the log and the metrics) and sends its
     * answer or its error, each decorated by {@code decorate} (CORS headers).
     */
    void run(
            String operation,
            ServerRequest request,
            ServerResponse response,
            BiConsumer<ServerRequest, ServerResponse> decorate,
            Stage stage) {
        long started = System.nanoTime();
        RequestLog log = new RequestLog();
        inFlight.incrementAndGet();
        try {
            if (!accepting.getAsBoolean()) {
                response.header(HeaderNames.CONNECTION, "close");
                throw new ApiException(
                        ErrorCode.UNAVAILABLE,
                        "the server is shutting down; the request was not processed and may be retried");
            }
            byte[] payload = stage.answer(log);
            send(request, response, decorate, 200, payload);
            log.status = 200;
        } catch (CloseConnectionException e) {
            // No answer can be written (the body's deadline passed, the client left): Helidon closes quietly.
            log.status = e instanceof ConnectionAbandoned abandoned ? abandoned.loggedStatus() : 499;
            throw e;
        } catch (ApiException e) {
            log.status = e.code().httpStatus();
            e.retryAfterSeconds().ifPresent(s -> response.header(HeaderNames.RETRY_AFTER, Long.toString(s)));
            send(request, response, decorate, log.status, errors.render(e));
        } catch (RuntimeException e) {
            String incident = UUID.randomUUID().toString();
            LOG.atError()
                    .setCause(e)
                    .addKeyValue("op", operation)
                    .addKeyValue("incident", incident)
                    .log("request failed");
            log.status = 500;
            send(
                    request,
                    response,
                    decorate,
                    500,
                    errors.render(new ApiException(ErrorCode.INTERNAL, "internal server error (" + incident + ")")));
        } finally {
            inFlight.decrementAndGet();
            long elapsed = System.nanoTime() - started;
            metrics.request(operation, log.status, elapsed);
            LOG.atInfo()
                    .addKeyValue("op", operation)
                    .addKeyValue("org", log.organizationId)
                    .addKeyValue("activity", log.activityId)
                    .addKeyValue("activityStatus", log.activityStatus)
                    .addKeyValue("status", log.status)
                    .addKeyValue("ms", String.format(java.util.Locale.ROOT, "%.2f", elapsed / 1e6))
                    .log("request");
        }
    }

    private static void send(
            ServerRequest request,
            ServerResponse response,
            BiConsumer<ServerRequest, ServerResponse> decorate,
            int status,
            byte[] payload) {
        decorate.accept(request, response);
        response.status(status);
        response.header(HeaderNames.CONTENT_TYPE, ApiEndpoint.JSON);
        ResponseBodies.send(request, response, payload);
    }
}
