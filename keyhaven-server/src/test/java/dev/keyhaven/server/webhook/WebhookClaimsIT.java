package dev.keyhaven.server.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.server.testing.StoreKind;
import dev.keyhaven.server.testing.TestServer;
import dev.keyhaven.server.testing.WebhookReceiver;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Two servers on one PostgreSQL database both run a deliverer over the same outbox: every event reaches the receiver
 * exactly once, whichever server claimed it (a slow receiver keeps attempts in flight while the other server
 * polls). SQLite has one process per file, so this runs on PostgreSQL only.
 */
class WebhookClaimsIT {
    private static final int EVENTS = 40;

    @Test
    void twoServersOnOneDatabaseNeverDeliverAnEventTwice() throws Exception {
        Map<String, AtomicInteger> perEvent = new ConcurrentHashMap<>();
        try (WebhookReceiver receiver = WebhookReceiver.start();
                TestServer first = TestServer.start(
                        StoreKind.POSTGRES,
                        c -> c.withWebhooks(WebhookSettings.DEFAULT
                                .withAllowInsecureUrls(true)
                                .withPollInterval(Duration.ofMillis(20))),
                        Clock.systemUTC());
                TestServer second = first.peer()) {
            receiver.answer(r -> {
                perEvent.computeIfAbsent(r.header("X-Keyhaven-Event-Id"), id -> new AtomicInteger())
                        .incrementAndGet();
                WebhookReceiver.pause(30); // keeps claims in flight while the other server looks for work
                return 200;
            });
            KeyhavenClient one = first.rootClient();
            KeyhavenClient two = second.rootClient();
            one.submit(
                    "create_webhook_endpoint",
                    "ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT",
                    Map.of(
                            "url",
                            receiver.url("/claims"),
                            "name",
                            "claims",
                            "subscriptions",
                            List.of(Map.of("eventType", "ACTIVITY_UPDATES"))),
                    "createWebhookEndpointResult");
            List<String> activityIds = new ArrayList<>();
            for (int i = 0; i < EVENTS; i++) {
                activityIds.add((i % 2 == 0 ? one : two)
                        .createUserTag("claims-" + i, List.of())
                        .id());
            }
            receiver.await(r -> activityIds.stream().anyMatch(id -> r.bodyText().contains(id)), EVENTS);
            WebhookReceiver.pause(500); // a second delivery of any event would arrive meanwhile
            assertThat(perEvent.entrySet().stream()
                            .filter(e -> e.getValue().get() > 1)
                            .collect(Collectors.toMap(
                                    Map.Entry::getKey, e -> e.getValue().get())))
                    .isEmpty();
            assertThat(receiver.received().stream()
                            .filter(r -> activityIds.stream()
                                    .anyMatch(id -> r.bodyText().contains(id))))
                    .hasSize(EVENTS);
        }
    }
}
