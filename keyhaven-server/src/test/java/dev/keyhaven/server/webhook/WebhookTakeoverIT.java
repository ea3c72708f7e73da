package dev.keyhaven.server.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.server.testing.KeyhavenProcess;
import dev.keyhaven.server.testing.PostgresCluster;
import dev.keyhaven.server.testing.WebhookReceiver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real jar, two nodes on one PostgreSQL (a cluster of the test's own). A node is killed with SIGKILL while its
 * attempt at a webhook delivery hangs in the receiver; another node, with a data directory of its own, delivers the
 * same event once the dead node's claim has expired (the attempt's timeout + 5 s), and nothing more.
 */
class WebhookTakeoverIT {
    @TempDir
    Path directory;

    private static List<String> serve(Path data, String url) {
        return List.of(
                "--data-dir",
                data.toString(),
                "--port",
                "0",
                "--db-url",
                url,
                "--webhook-allow-insecure-urls",
                "--webhook-first-retry-millis",
                "100",
                "--webhook-timeout-millis",
                "4000");
    }

    @Test
    void aDeliveryClaimedByADeadNodeIsDeliveredByAnotherOnceTheClaimExpires() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        try (PostgresCluster cluster = PostgresCluster.create("keyhaven");
                WebhookReceiver receiver = WebhookReceiver.start()) {
            String url = cluster.url("keyhaven");
            Path firstData = directory.resolve("first");
            Path secondData = directory.resolve("second");
            String activityId;
            String eventId;
            try (KeyhavenProcess first = KeyhavenProcess.serve(serve(firstData, url), Map.of())) {
                KeyhavenClient client = new KeyhavenClient(
                        first.baseUrl(),
                        ApiKeyStamper.fromPrivateKey(
                                ApiKeyStamper.Curve.P256, Files.readString(firstData.resolve("root-api-key.private"))),
                        first.organizationId());
                client.submit(
                        "create_webhook_endpoint",
                        "ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT",
                        Map.of(
                                "url",
                                receiver.url("/takeover"),
                                "name",
                                "takeover",
                                "subscriptions",
                                List.of(Map.of("eventType", "ACTIVITY_UPDATES"))),
                        "createWebhookEndpointResult");
                // The first node's attempt hangs past the node's death; every later one is accepted.
                receiver.answer(r -> {
                    if (r.bodyText().contains("tag-that-hangs") && attempts.getAndIncrement() == 0) {
                        WebhookReceiver.pause(15_000);
                    }
                    return 200;
                });
                activityId = client.createUserTag("tag-that-hangs", List.of()).id();
                eventId = receiver.awaitActivity(activityId, "ACTIVITY_STATUS_COMPLETED")
                        .header("X-Keyhaven-Event-Id");
                assertThat(first.kill()).as("exit status after SIGKILL").isEqualTo(137);
            }
            Files.createDirectories(secondData);
            Files.copy(firstData.resolve("master.key"), secondData.resolve("master.key"));
            try (KeyhavenProcess second = KeyhavenProcess.serve(serve(secondData, url), Map.of())) {
                List<WebhookReceiver.Received> deliveries = new java.util.ArrayList<>();
                second.explainingFailures(() -> deliveries.addAll(
                        receiver.await(r -> r.bodyText().contains("\"id\":\"" + activityId + "\""), 2)));
                assertThat(deliveries)
                        .extracting(r -> r.header("X-Keyhaven-Event-Id"))
                        .containsExactly(eventId, eventId);
                WebhookReceiver.pause(1_000);
                assertThat(receiver.received().stream()
                                .filter(r -> r.bodyText().contains("\"id\":\"" + activityId + "\"")))
                        .as("the event once by each node, not again")
                        .hasSize(2);
            }
        }
    }
}
