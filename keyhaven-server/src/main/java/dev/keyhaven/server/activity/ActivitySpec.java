package dev.keyhaven.server.activity;

import java.util.List;

/**
 * What a handler is: the operation it serves ({@code /public/v1/submit/<operation>}), what it acts on, and the
 * activity types it accepts, newest first (the first is the current version).
 */
public record ActivitySpec(String operation, ActivityResource resource, ActivityAction action,
        List<ActivityVersion> versions) {

    public ActivitySpec {
        if (versions.isEmpty()) {
            throw new IllegalArgumentException("an operation accepts at least one activity type");
        }
        versions = List.copyOf(versions);
    }

    public static ActivitySpec of(String operation, ActivityResource resource, ActivityAction action,
            ActivityVersion... versions) {
        return new ActivitySpec(operation, resource, action, List.of(versions));
    }
}
