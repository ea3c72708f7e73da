package dev.keyhaven.server.activity;

import java.util.List;

/**
 * What a handler is: the operation it serves ({@code /public/v1/submit/<operation>}), what it acts on, the activity
 * types it accepts, newest first (the first is the current version), what executing it changes, and whether its
 * requests may ask for app proofs ({@code generateAppProofs: true}).
 */
public record ActivitySpec(
        String operation,
        ActivityResource resource,
        ActivityAction action,
        List<ActivityVersion> versions,
        ActivityEffect effect,
        boolean acceptsAppProofs) {

    public ActivitySpec(
            String operation,
            ActivityResource resource,
            ActivityAction action,
            List<ActivityVersion> versions,
            ActivityEffect effect) {
        this(operation, resource, action, versions, effect, true);
    }

    public ActivitySpec {
        if (versions.isEmpty()) {
            throw new IllegalArgumentException("an operation accepts at least one activity type");
        }
        versions = List.copyOf(versions);
    }

    public static ActivitySpec of(
            String operation, ActivityResource resource, ActivityAction action, ActivityVersion... versions) {
        return new ActivitySpec(operation, resource, action, List.of(versions), ActivityEffect.CHANGES_ORGANIZATION);
    }

    /** The spec of an operation whose versions are those of {@code table}. */
    public static ActivitySpec of(
            String operation, ActivityResource resource, ActivityAction action, VersionTable<?> table) {
        return new ActivitySpec(operation, resource, action, table.versions(), ActivityEffect.CHANGES_ORGANIZATION);
    }

    /** This spec for a handler whose execution changes what {@code effect} says. */
    public ActivitySpec withEffect(ActivityEffect effect) {
        return new ActivitySpec(operation, resource, action, versions, effect, acceptsAppProofs);
    }

    /** This spec for an operation whose requests may not set {@code generateAppProofs} (a 400 naming the field). */
    public ActivitySpec withoutAppProofs() {
        return new ActivitySpec(operation, resource, action, versions, effect, false);
    }
}
