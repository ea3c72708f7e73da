package dev.keyhaven.server.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.server.app.KeyhavenConfig;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.WebhookReceiver;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * DNS rebinding, with the SSRF rules on (no insecure URLs): a name that resolves to a public address when an
 * attempt checks it, and to loopback from then on, must not reach a receiver listening on loopback. The resolver is
 * the test's (an attacker's DNS with a zero TTL), and so is the dialer: it records every address the deliverer
 * connects to and lets only loopback through, so the public address is never really contacted.
 */
class WebhookRebindingIT extends OnBothStores {
    private static final String NAME = "hooks.rebind.test";
    private static final InetAddress PUBLIC = InetAddress.ofLiteral("93.184.216.34");
    private static final String UNREACHABLE = "the test's network reaches loopback only";

    private final AtomicInteger lookups = new AtomicInteger();
    private final List<InetSocketAddress> dialled = new CopyOnWriteArrayList<>();
    private final AtomicInteger reached = new AtomicInteger();
    private ServerSocket internal;

    @Override
    protected KeyhavenConfig configure(KeyhavenConfig defaults) {
        WebhookNetwork network = WebhookNetwork.SYSTEM
                .withResolver(host -> {
                    if (!host.equals(NAME)) {
                        throw new UnknownHostException(host);
                    }
                    return List.of(lookups.getAndIncrement() == 0 ? PUBLIC : InetAddress.getLoopbackAddress());
                })
                .withDialer((address, timeoutMillis) -> {
                    dialled.add(address);
                    if (!address.getAddress().isLoopbackAddress()) {
                        throw new ConnectException(UNREACHABLE);
                    }
                    Socket socket = new Socket();
                    socket.connect(address, timeoutMillis);
                    return socket;
                });
        return defaults.withWebhooks(WebhookSettings.DEFAULT
                .withNetwork(network)
                .withRetries(1, Duration.ofMillis(50), Duration.ofMillis(50))
                .withPollInterval(Duration.ofMillis(50))
                .withRequestTimeout(Duration.ofSeconds(5)));
    }

    /** An internal service on loopback: counts the connections that reach it. */
    @BeforeAll
    void startInternalService() throws IOException {
        internal = new ServerSocket();
        internal.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread.ofVirtual().start(() -> {
            while (!internal.isClosed()) {
                try {
                    Socket connection = internal.accept();
                    reached.incrementAndGet();
                    connection.close();
                } catch (IOException e) {
                    // closed at the end of the class
                }
            }
        });
    }

    @AfterAll
    void stopInternalService() throws IOException {
        internal.close();
    }

    private JsonNode awaitFailedDeliveries(String endpointId, int count) {
        Instant deadline = Instant.now().plusSeconds(20);
        while (true) {
            JsonNode deliveries = root.query("list_webhook_deliveries", Map.of("endpointId", endpointId))
                    .path("deliveries");
            long failed = deliveries
                    .valueStream()
                    .filter(d -> d.path("status").asString().equals("FAILED"))
                    .count();
            if (failed == count && deliveries.size() == count) {
                return deliveries;
            }
            assertThat(Instant.now())
                    .as(count + " failed deliveries, have " + deliveries)
                    .isBefore(deadline);
            WebhookReceiver.pause(50);
        }
    }

    @Test
    void aNameRebindingToLoopbackAfterTheCheckDoesNotReachLoopback() {
        // This instance serves both stores; each store's server starts with no endpoint, so nothing has been
        // looked up or dialled for it yet.
        lookups.set(0);
        dialled.clear();
        reached.set(0);
        String url = "https://" + NAME + ":" + internal.getLocalPort() + "/hook";
        // The endpoint's own creation is its first event; the tag is the second.
        String endpointId = root.submit(
                        "create_webhook_endpoint",
                        "ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT",
                        Map.of(
                                "url",
                                url,
                                "name",
                                "rebinding",
                                "subscriptions",
                                List.of(Map.of("eventType", "ACTIVITY_UPDATES"))),
                        "createWebhookEndpointResult")
                .result()
                .path("endpointId")
                .asString();
        root.createUserTag("rebinding-" + store, List.of());

        JsonNode deliveries = awaitFailedDeliveries(endpointId, 2);

        assertThat(reached.get())
                .as("connections that reached the service on loopback")
                .isZero();
        // One lookup per attempt: the first attempt got the public address and connected to it, and to nothing
        // else; the second got loopback and was refused before connecting.
        assertThat(lookups.get()).isEqualTo(2);
        assertThat(dialled).containsExactly(new InetSocketAddress(PUBLIC, internal.getLocalPort()));
        assertThat(deliveries
                        .valueStream()
                        .map(d -> d.path("lastError").asString())
                        .toList())
                .containsExactlyInAnyOrder(
                        "ConnectException: " + UNREACHABLE, "the host resolves to a non-public address");
        assertThat(deliveries.valueStream().map(d -> d.path("attempts").asInt()).toList())
                .containsExactly(1, 1);
    }
}
