package dev.keyhaven.server.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.server.api.JsonMappers;
import dev.keyhaven.server.testing.KeyhavenProcess;
import dev.keyhaven.server.testing.ServedJar;
import dev.keyhaven.server.testing.StoreKind;
import dev.keyhaven.server.testing.WebhookReceiver;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The real jar. At-least-once across a crash: it commits activities whose deliveries the receiver refuses (503), is
 * killed with SIGKILL while they wait for their retries, and after a restart on the same data every event reaches
 * the receiver, with the event id it had before the kill. And {@code webhook-keys rotate}, run beside a server.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class WebhookDurabilityIT {
    private static final int ACTIVITIES = 10;

    @Parameter
    StoreKind store;

    @TempDir
    Path dataDirectory;

    private ServedJar jar;

    @BeforeEach
    void prepare() {
        jar = ServedJar.in(store, dataDirectory);
    }

    @AfterEach
    void dropDatabase() {
        jar.close();
    }

    @Test
    void eventsCommittedBeforeAKill9AreDeliveredAfterTheRestart() {
        Set<String> refusedEvents = ConcurrentHashMap.newKeySet();
        Map<String, String> acceptedEventByActivity = new ConcurrentHashMap<>();
        List<String> activityIds = new ArrayList<>();
        try (WebhookReceiver receiver = WebhookReceiver.start()) {
            receiver.answer(r -> {
                refusedEvents.add(r.header("X-Keyhaven-Event-Id"));
                return 503;
            });
            try (KeyhavenProcess server = KeyhavenProcess.serve(serveArguments(), Map.of())) {
                KeyhavenClient client =
                        new KeyhavenClient(server.baseUrl(), jar.rootStamper(), server.organizationId());
                client.submit(
                        "create_webhook_endpoint",
                        "ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT",
                        Map.of(
                                "url",
                                receiver.url("/durable"),
                                "name",
                                "durable",
                                "subscriptions",
                                List.of(Map.of("eventType", "ACTIVITY_UPDATES"))),
                        "createWebhookEndpointResult");
                for (int i = 0; i < ACTIVITIES; i++) {
                    activityIds.add(
                            client.createUserTag("durable-" + i, List.of()).id());
                }
                receiver.await(r -> r.bodyText().contains(activityIds.getFirst()), 1);
                assertThat(server.kill()).as("exit status after SIGKILL").isEqualTo(137);
            }
            receiver.answer(r -> {
                String body = r.bodyText();
                activityIds.stream()
                        .filter(body::contains)
                        .findFirst()
                        .ifPresent(id -> acceptedEventByActivity.put(id, r.header("X-Keyhaven-Event-Id")));
                return 200;
            });
            try (KeyhavenProcess restarted = KeyhavenProcess.serve(serveArguments(), Map.of())) {
                restarted.explainingFailures(() -> {
                    try {
                        receiver.await(r -> acceptedEventByActivity.size() == ACTIVITIES, 1);
                    } catch (AssertionError e) {
                        throw new AssertionError(
                                "accepted " + acceptedEventByActivity + " of " + activityIds
                                        + "; received "
                                        + receiver.received().stream()
                                                .map(r -> r.header("X-Keyhaven-Event-Id") + " "
                                                        + r.bodyText()
                                                                .substring(
                                                                        0,
                                                                        Math.min(
                                                                                80,
                                                                                r.bodyText()
                                                                                        .length())))
                                                .toList(),
                                e);
                    }
                });
            }
            assertThat(acceptedEventByActivity.keySet()).containsExactlyInAnyOrderElementsOf(activityIds);
            assertThat(refusedEvents).contains(acceptedEventByActivity.get(activityIds.getFirst()));
        }
    }

    @Test
    void theRotateCommandMakesANewSigningKeyAndTheJwksKeepsTheOldOne() throws Exception {
        try (KeyhavenProcess server = KeyhavenProcess.serve(serveArguments(), Map.of())) {
            List<String> before = keyIds(server);
            assertThat(before).hasSize(1);
            List<String> rotate = new ArrayList<>(List.of("webhook-keys", "rotate"));
            rotate.addAll(jar.storeArguments());
            KeyhavenProcess.Result rotated = KeyhavenProcess.run(rotate, Map.of());
            assertThat(rotated.exitCode()).as(rotated.stderr()).isZero();
            String newKeyId = JsonMappers.strict()
                    .readTree(rotated.stdout())
                    .path("keyId")
                    .asString();
            assertThat(keyIds(server)).containsExactly(newKeyId, before.getFirst());
        }
    }

    private static List<String> keyIds(KeyhavenProcess server) throws Exception {
        HttpResponse<String> jwks = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(server.baseUrl() + "/public/v1/discovery/webhooks/jwks"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        List<String> ids = new ArrayList<>();
        JsonMappers.strict()
                .readTree(jwks.body())
                .path("keys")
                .forEach(k -> ids.add(k.path("kid").asString()));
        return ids;
    }

    private List<String> serveArguments() {
        return jar.serveArguments(
                "--webhook-allow-insecure-urls",
                "--webhook-first-retry-millis",
                "100",
                "--webhook-max-attempts",
                "1000",
                "--webhook-timeout-millis",
                "2000");
    }
}
