package dev.keyhaven.server.testing;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A webhook receiver on loopback: records every request (headers, raw body) and answers with the status {@code
 * answer} chooses for it (200 unless told otherwise).
 */
public final class WebhookReceiver implements AutoCloseable {
    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private volatile Function<Received, Integer> answer = r -> 200;

    /** One request as it arrived. Header names are case-insensitive. */
    public record Received(String method, String path, Map<String, List<String>> headers, byte[] body) {

        public String header(String name) {
            List<String> values = headers.get(name);
            return values == null || values.isEmpty() ? null : values.getFirst();
        }

        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private WebhookReceiver(HttpServer server) {
        this.server = server;
    }

    public static WebhookReceiver start() {
        try {
            HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            WebhookReceiver receiver = new WebhookReceiver(http);
            http.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            http.createContext("/", exchange -> {
                byte[] body;
                try (InputStream in = exchange.getRequestBody()) {
                    body = in.readAllBytes();
                }
                Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
                exchange.getRequestHeaders().forEach((k, v) -> headers.put(k, List.copyOf(v)));
                Received r = new Received(
                        exchange.getRequestMethod(), exchange.getRequestURI().getPath(), headers, body);
                receiver.received.add(r);
                int status = receiver.answer.apply(r);
                exchange.sendResponseHeaders(status, -1);
                exchange.close();
            });
            http.start();
            return receiver;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code http://127.0.0.1:<port><path>}. */
    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    public void answer(Function<Received, Integer> chooser) {
        answer = chooser;
    }

    public List<Received> received() {
        return new ArrayList<>(received);
    }

    /** The requests matching {@code filter}, once there are at least {@code count} (or fails after 30 s). */
    public List<Received> await(Predicate<Received> filter, int count) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (true) {
            List<Received> matching = received.stream().filter(filter).toList();
            if (matching.size() >= count) {
                return matching;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("expected " + count + " matching webhook deliveries within 30 s, got "
                        + matching.size() + " (of " + received.size() + " received)");
            }
            pause(20);
        }
    }

    /** Sleeps, failing the test if interrupted. */
    public static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** The first request whose body is the activity {@code activityId} with {@code status}. */
    public Received awaitActivity(String activityId, String status) {
        return await(
                        r -> r.bodyText().contains("\"id\":\"" + activityId + "\"")
                                && r.bodyText().contains("\"status\":\"" + status + "\""),
                        1)
                .getFirst();
    }

    public Optional<Received> last() {
        return received.isEmpty() ? Optional.empty() : Optional.of(received.getLast());
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
