package dev.keyhaven.server.http;

import dev.keyhaven.server.activity.ActivityMetrics;
import dev.keyhaven.server.activity.ActivityStatus;
import dev.keyhaven.server.activity.ActivityType;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * Request and activity metrics. Labels are bounded: operation names come from the route table (or
 * {@code unknown}), statuses from HTTP and the activity enum; organization ids are never labels.
 */
public final class HttpMetrics implements ActivityMetrics {
    private final MeterRegistry registry;

    public HttpMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void request(String operation, int status, long nanos) {
        Timer.builder("keyhaven.http.requests")
                .description("Public API requests by operation and HTTP status")
                .tag("operation", operation)
                .tag("status", Integer.toString(status))
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(10))
                .register(registry)
                .record(Duration.ofNanos(nanos));
    }

    @Override
    public void recorded(ActivityType type, ActivityStatus status) {
        Counter.builder("keyhaven.activities")
                .description("Activities recorded, by type and resulting status")
                .tag("type", type.wireName())
                .tag("status", status.wireName())
                .register(registry)
                .increment();
    }
}
