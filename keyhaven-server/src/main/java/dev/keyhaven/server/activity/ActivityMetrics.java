package dev.keyhaven.server.activity;

/** Observes activity outcomes (for metrics). */
@FunctionalInterface
public interface ActivityMetrics {
    ActivityMetrics NONE = (type, status) -> {};

    void recorded(ActivityType type, ActivityStatus status);
}
