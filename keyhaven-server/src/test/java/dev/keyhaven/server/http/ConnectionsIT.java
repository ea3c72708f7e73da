package dev.keyhaven.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.server.testing.Json;
import dev.keyhaven.server.testing.KeyhavenProcess;
import dev.keyhaven.server.testing.RawExchange;
import dev.keyhaven.server.testing.RawExchange.Response;
import dev.keyhaven.server.testing.ServedJar;
import dev.keyhaven.server.testing.StoreKind;
import dev.keyhaven.server.testing.TemporaryDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

/**
 * The packaged jar's two listeners, the API and the auth proxy, against clients no HTTP library would be: sockets that
 * send nothing or stop half-way, broken chunked bodies, conflicting framing, HEAD, {@code Connection: close}. Every
 * refusal is a 4xx in the API's JSON error shape, nothing hangs, and no request body reaches the log. Deadlines are
 * shortened by environment variables (idle 3 s, head and body 2 s), as an operator would set them.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConnectionsIT {
    /** Sent in request bodies that must never be logged. */
    private static final String SECRET = "body-secret-6a1f0c";

    private static final int BODY_LIMIT = 4096;
    /** What {@code ConnectionGuard} lets a body's raw bytes (chunk framing included) reach: twice the limit, 64 KiB. */
    private static final int RAW_BODY_LIMIT = 2 * BODY_LIMIT + 64 * 1024;

    @Parameter
    StoreKind store;

    private Path directory;
    private ServedJar jar;
    private KeyhavenProcess server;
    private int authProxyPort;
    private String authProxyConfigId;

    /** The two listeners and a POST route of each that reads a body. */
    enum Listener {
        API("/public/v1/query/whoami"),
        AUTH_PROXY("/v1/otp_init");

        private final String bodyRoute;

        Listener(String bodyRoute) {
            this.bodyRoute = bodyRoute;
        }
    }

    @BeforeParameterizedClassInvocation
    void startServer() throws IOException {
        directory = TemporaryDirectory.create("keyhaven-connections");
        jar = ServedJar.in(store, directory);
        authProxyPort = freePort();
        server = KeyhavenProcess.serve(
                jar.serveArguments(),
                Map.of(
                        "KEYHAVEN_AUTH_PROXY_PORT", Integer.toString(authProxyPort),
                        "KEYHAVEN_MAX_BODY_BYTES", Integer.toString(BODY_LIMIT),
                        "KEYHAVEN_IDLE_TIMEOUT_SECONDS", "3",
                        "KEYHAVEN_HEADER_TIMEOUT_SECONDS", "2",
                        "KEYHAVEN_BODY_TIMEOUT_SECONDS", "2"));
        String configLine =
                server.awaitStdout(line -> line.startsWith("auth proxy config id: "), Duration.ofSeconds(30));
        authProxyConfigId = configLine.split(" ")[4];
    }

    @AfterParameterizedClassInvocation
    void stopServer() {
        if (server != null) {
            server.close();
        }
        if (jar != null) {
            jar.close();
        }
        TemporaryDirectory.delete(directory);
    }

    /** Whatever a test sent, the server logged no body, no error and no 500. */
    @AfterEach
    void nothingLeaked() {
        String log = server.stderr();
        assertThat(log)
                .as("server log")
                .doesNotContain(SECRET)
                .doesNotContain(" ERROR ")
                .doesNotContain("status=\"500\"");
    }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void aConnectionThatSendsNothingIsClosedAfterTheIdleTimeout(Listener listener) {
        try (RawExchange exchange = RawExchange.open(port(listener))) {
            assertThat(exchange.closedByServer()).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void aKeptAliveConnectionServesRequestsThenClosesWhenIdle(Listener listener) {
        try (RawExchange exchange = RawExchange.open(port(listener))) {
            for (int i = 0; i < 2; i++) {
                Response health = exchange.write("GET /health HTTP/1.1\r\nHost: keyhaven\r\n\r\n")
                        .read();
                assertThat(health.status()).isEqualTo(200);
                assertThat(health.headers()).containsEntry("connection", "keep-alive");
            }
            assertThat(exchange.closedByServer()).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void halfARequestLineGets408(Listener listener) {
        assertTimedOut(
                listener, "POST " + listener.bodyRoute.substring(0, 5), "request headers not received within 2 s");
    }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void halfTheHeadersGet408(Listener listener) {
        assertTimedOut(
                listener,
                "POST " + listener.bodyRoute + " HTTP/1.1\r\nHost: keyhaven\r\nX-Partial: 1\r\n",
                "request headers not received within 2 s");
    }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void halfABodyGets408(Listener listener) {
        assertTimedOut(
                listener,
                head(listener, "Content-Length: 100") + "{\"organizationId\":",
                "request body not received within 2 s");
    }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void aChunkedBodyWithoutItsLastChunkGets408WhileTheClientWaits(Listener listener) {
        assertTimedOut(
                listener,
                head(listener, "Transfer-Encoding: chunked") + "5\r\n" + SECRET.substring(0, 5) + "\r\n",
                "request body not received within 2 s");
    }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void aChunkedBodyCutShortGets400(Listener listener) {
        try (RawExchange exchange = RawExchange.open(port(listener))) {
            exchange.write(head(listener, "Transfer-Encoding: chunked") + "20\r\n" + SECRET)
                    .halfClose();
            assertRefused(
                    exchange.read(),
                    400,
                    3,
                    "REQUEST_INVALID",
                    "bad request body: the connection ended before the body did");
            assertThat(exchange.closedByServer()).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void chunkSizesThatAreNotSizesGet400AndTheBodyIsNotLogged(Listener listener) {
        for (String chunks : List.of(
                "zz\r\n{\"contact\":\"" + SECRET + "\"}\r\n0\r\n\r\n",
                "{\"organizationId\":\"" + SECRET + "\"}\r\n0\r\n\r\n",
                "ffffffffffffffff\r\n" + SECRET + "\r\n0\r\n\r\n",
                "-5\r\n" + SECRET + "\r\n0\r\n\r\n")) {
            try (RawExchange exchange = RawExchange.open(port(listener))) {
                exchange.write(head(listener, "Transfer-Encoding: chunked") + chunks);
                assertRefused(
                        exchange.read(),
                        400,
                        3,
                        "REQUEST_INVALID",
                        "bad request body: malformed chunked transfer coding");
                assertThat(exchange.closedByServer())
                        .as("connection after %s", chunks)
                        .isTrue();
            }
        }
    }

    /**
     * A chunk declared 2 GiB long: the server stops buffering it once its raw bytes pass the bound. The head is sent
     * first and the body only after the server's {@code 100 Continue}, so that exactly one byte over the bound is
     * read and the connection closes with nothing unread (a close with unread bytes resets the connection, and the
     * reset can discard the response).
     */
    @ParameterizedTest
    @EnumSource(Listener.class)
    void aChunkLargerThanTheBodyLimitGets413(Listener listener) {
        try (RawExchange exchange = RawExchange.open(port(listener))) {
            exchange.write(head(listener, "Transfer-Encoding: chunked\r\nExpect: 100-continue"));
            assertThat(exchange.read().status()).isEqualTo(100);
            String sizeLine = "7fffffff\r\n";
            exchange.write(sizeLine + "a".repeat(RAW_BODY_LIMIT + 1 - sizeLine.length()));
            assertRefused(
                    exchange.read(), 413, 8, "REQUEST_INVALID", "request body is larger than " + BODY_LIMIT + " bytes");
            assertThat(exchange.closedByServer()).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void contentLengthBesideTransferEncodingGets400(Listener listener) {
        try (RawExchange exchange = RawExchange.open(port(listener))) {
            exchange.write(
                    head(listener, "Transfer-Encoding: chunked\r\nContent-Length: 5") + "5\r\nhello\r\n0\r\n\r\n");
            assertRefused(
                    exchange.read(),
                    400,
                    3,
                    "REQUEST_INVALID",
                    "malformed HTTP request: Content-Length and Transfer-Encoding must not be combined");
            assertThat(exchange.closedByServer()).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void transferCodingsOtherThanChunkedGet400(Listener listener) {
        for (String coding : List.of("gzip", "gzip, chunked", "chunked, chunked", "identity")) {
            try (RawExchange exchange = RawExchange.open(port(listener))) {
                exchange.write(head(listener, "Transfer-Encoding: " + coding) + "5\r\nhello\r\n0\r\n\r\n");
                assertRefused(
                        exchange.read(),
                        400,
                        3,
                        "REQUEST_INVALID",
                        "unsupported transfer coding: a request body is sent as it is or chunked");
                assertThat(exchange.closedByServer())
                        .as("connection after %s", coding)
                        .isTrue();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void aMethodThatIsNotATokenGets400(Listener listener) {
        try (RawExchange exchange = RawExchange.open(port(listener))) {
            exchange.write("G@T /health HTTP/1.1\r\nHost: keyhaven\r\n\r\n");
            assertRefused(exchange.read(), 400, 3, "REQUEST_INVALID", "malformed HTTP request");
            assertThat(exchange.closedByServer()).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void anotherHttpVersionGets400(Listener listener) {
        try (RawExchange exchange = RawExchange.open(port(listener))) {
            exchange.write("GET /health HTTP/1.0\r\n\r\n");
            assertRefused(exchange.read(), 400, 3, "REQUEST_INVALID", "unsupported HTTP version: HTTP/1.1 is required");
            assertThat(exchange.closedByServer()).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void headOnAGetRouteAnswersLikeGetWithoutABody(Listener listener) {
        try (RawExchange exchange = RawExchange.open(port(listener))) {
            Response head = exchange.write("HEAD /health HTTP/1.1\r\nHost: keyhaven\r\n\r\n")
                    .read(true);
            Response get = exchange.write("GET /health HTTP/1.1\r\nHost: keyhaven\r\n\r\n")
                    .read();
            assertThat(head.status()).isEqualTo(200);
            assertThat(get.status()).isEqualTo(200);
            assertThat(head.headers())
                    .containsEntry("content-type", "application/json")
                    .containsEntry("content-length", Integer.toString(get.body().length));
            assertThat(Json.parse(get.body()).path("status").asString()).isEqualTo("ok");
        }
    }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void headOnAnotherRouteIsAnErrorWithoutABody(Listener listener) {
        try (RawExchange exchange = RawExchange.open(port(listener))) {
            Response head = exchange.write("HEAD " + listener.bodyRoute + " HTTP/1.1\r\nHost: keyhaven\r\n\r\n")
                    .read(true);
            Response get = exchange.write("GET /health HTTP/1.1\r\nHost: keyhaven\r\n\r\n")
                    .read();
            assertThat(head.status()).isEqualTo(listener == Listener.API ? 405 : 404);
            assertThat(head.headers()).containsEntry("content-type", "application/json");
            assertThat(get.status()).isEqualTo(200);
        }
    }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void connectionCloseEndsTheConnectionAfterTheResponse(Listener listener) {
        try (RawExchange exchange = RawExchange.open(port(listener))) {
            // A second request right behind the first: answering it would show the connection was kept.
            exchange.write("GET /health HTTP/1.1\r\nHost: keyhaven\r\nConnection: close\r\n\r\n"
                    + "GET /health HTTP/1.1\r\nHost: keyhaven\r\n\r\n");
            Response health = exchange.read();
            assertThat(health.status()).isEqualTo(200);
            assertThat(health.headers()).containsEntry("connection", "close");
            assertThat(exchange.closedByServer()).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(Listener.class)
    void bytesAfterAMalformedBodyAreNotReadAsARequest(Listener listener) {
        try (RawExchange exchange = RawExchange.open(port(listener))) {
            exchange.write(head(listener, "Transfer-Encoding: chunked") + "zz\r\n"
                    + "GET /health HTTP/1.1\r\nHost: keyhaven\r\n\r\n");
            assertRefused(
                    exchange.read(), 400, 3, "REQUEST_INVALID", "bad request body: malformed chunked transfer coding");
            assertThat(exchange.closedByServer()).isTrue();
        }
    }

    private void assertTimedOut(Listener listener, String partialRequest, String message) {
        try (RawExchange exchange = RawExchange.open(port(listener))) {
            exchange.write(partialRequest);
            Response response = exchange.read();
            assertRefused(response, 408, 3, "REQUEST_INVALID", message);
            assertThat(exchange.closedByServer()).isTrue();
        }
    }

    private static void assertRefused(
            Response response, int status, int code, String turnkeyErrorCode, String message) {
        assertThat(response.status()).as(response.bodyText()).isEqualTo(status);
        assertThat(response.headers())
                .containsEntry("content-type", "application/json")
                .containsEntry("connection", "close");
        JsonNode body = Json.parse(response.body());
        assertThat(body.path("code").asInt()).isEqualTo(code);
        assertThat(body.path("message").asString()).isEqualTo(message);
        assertThat(body.path("turnkeyErrorCode").asString()).isEqualTo(turnkeyErrorCode);
        assertThat(body.path("details").get(0).path("turnkeyErrorCode").asString())
                .isEqualTo(turnkeyErrorCode);
    }

    /** The head of a POST to the listener's body route, with {@code framing} and what the route needs to read it. */
    private String head(Listener listener, String framing) {
        String proxyConfig =
                listener == Listener.AUTH_PROXY ? "X-Auth-Proxy-Config-Id: " + authProxyConfigId + "\r\n" : "";
        return "POST " + listener.bodyRoute + " HTTP/1.1\r\nHost: keyhaven\r\nContent-Type: application/json\r\n"
                + proxyConfig + framing + "\r\n\r\n";
    }

    private int port(Listener listener) {
        return listener == Listener.API ? server.port() : authProxyPort;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
