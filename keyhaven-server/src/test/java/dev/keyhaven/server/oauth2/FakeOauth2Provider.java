package dev.keyhaven.server.oauth2;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A provider's token and userinfo endpoints on loopback (the JDK's HTTP server), for X under {@code /x} and Discord
 * under {@code /discord}. Each endpoint answers what the test set last ({@link #answer}); every request is recorded.
 */
final class FakeOauth2Provider implements AutoCloseable {
    /** A request as the provider received it. */
    record Received(String method, String path, Map<String, List<String>> headers, String body) {
        String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().getFirst())
                    .findFirst()
                    .orElse(null);
        }
    }

    /** What an endpoint answers: a status, a JSON body and extra headers. */
    record Answer(int status, String body, Map<String, String> headers, long delayMillis) {
        /** Closes the connection without any answer. */
        static final Answer DROP = new Answer(-1, "", Map.of(), 0);

        Answer(int status, String body, Map<String, String> headers) {
            this(status, body, headers, 0);
        }

        /** This answer, sent only after {@code millis}. */
        Answer delayed(long millis) {
            return new Answer(status, body, headers, millis);
        }

        static Answer json(int status, String body) {
            return new Answer(status, body, Map.of());
        }
    }

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final Map<String, Answer> answers = new java.util.concurrent.ConcurrentHashMap<>();

    private FakeOauth2Provider(HttpServer server) {
        this.server = server;
    }

    static FakeOauth2Provider start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            FakeOauth2Provider fake = new FakeOauth2Provider(server);
            server.createContext("/", fake::handle);
            // A delayed answer must not hold up the others.
            server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
            server.start();
            return fake;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    URI url(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    /** Sets what {@code path} answers from now on. */
    void answer(String path, Answer answer) {
        answers.put(path, answer);
    }

    List<Received> received() {
        return List.copyOf(received);
    }

    void clear() {
        received.clear();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String path = exchange.getRequestURI().getRawPath();
            received.add(
                    new Received(exchange.getRequestMethod(), path, Map.copyOf(exchange.getRequestHeaders()), body));
            Answer answer = answers.getOrDefault(path, Answer.json(404, "{\"error\":\"not_found\"}"));
            if (answer == Answer.DROP) {
                throw new IOException("the fake provider drops this connection");
            }
            if (answer.delayMillis() > 0) {
                try {
                    Thread.sleep(answer.delayMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            answer.headers()
                    .forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
            exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                exchange.getResponseBody().write(bytes);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
