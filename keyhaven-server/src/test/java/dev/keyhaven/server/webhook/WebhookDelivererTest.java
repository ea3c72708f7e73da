package dev.keyhaven.server.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The retry schedule: exponential from the first delay, capped, with jitter of 50–100 %. */
class WebhookDelivererTest {

    @Test
    void retriesBackOffExponentiallyWithJitterUpToTheCap() {
        WebhookSettings settings = WebhookSettings.DEFAULT.withRetries(20, Duration.ofSeconds(5), Duration.ofHours(1));
        try (WebhookDeliverer deliverer = new WebhookDeliverer(
                null, null, null, new WebhookUrls(false), settings, Clock.systemUTC(), new SplittableRandom(7))) {
            long expected = 5_000;
            for (int attempt = 1; attempt <= 15; attempt++) {
                long ceiling = Math.min(expected, 3_600_000);
                for (int sample = 0; sample < 50; sample++) {
                    assertThat(deliverer.backoff(attempt).toMillis())
                            .as("after attempt " + attempt)
                            .isBetween(ceiling / 2, ceiling);
                }
                expected *= 2;
            }
        }
    }
}
