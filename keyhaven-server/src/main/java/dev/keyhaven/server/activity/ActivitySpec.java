package dev.keyhaven.server.activity;

import java.util.List;

/**
 * What a handler is: the operation it serves ({@code /public/v1/submit/<operation>}), what it acts on, the activity
 * types it accepts, newest first (the first is the current version), what executing it changes, whether its
 * requests may ask for app proofs ({@code generateAppProofs: true}), and who may submit it.
 *
 * <p>{@code parentInitiated}: Turnkey's sign-in activities ({@code email_auth}, the OTP flows, {@code oauth}) "can
 * only be initiated by a parent organization for a sub-organization": a user of the parent submits them with the
 * sub-organization's {@code organizationId}. Every other activity a parent's user submits for a sub-organization is
 * refused ("organization mismatch": parents have read access only). Such an activity is decided by the parent's
 * policies and root quorum (the submitter's organization) and recorded, and executed, in the sub-organization.
 */
public record ActivitySpec(
        String operation,
        ActivityResource resource,
        ActivityAction action,
        List<ActivityVersion> versions,
        ActivityEffect effect,
        boolean acceptsAppProofs,
        boolean parentInitiated) {

    public ActivitySpec(
            String operation,
            ActivityResource resource,
            ActivityAction action,
            List<ActivityVersion> versions,
            ActivityEffect effect,
            boolean acceptsAppProofs) {
        this(operation, resource, action, versions, effect, acceptsAppProofs, false);
    }

    public ActivitySpec(
            String operation,
            ActivityResource resource,
            ActivityAction action,
            List<ActivityVersion> versions,
            ActivityEffect effect) {
        this(operation, resource, action, versions, effect, true, false);
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
        return new ActivitySpec(operation, resource, action, versions, effect, acceptsAppProofs, parentInitiated);
    }

    /** This spec for an operation whose requests may not set {@code generateAppProofs} (a 400 naming the field). */
    public ActivitySpec withoutAppProofs() {
        return new ActivitySpec(operation, resource, action, versions, effect, false, parentInitiated);
    }

    /**
     * This spec for an operation a parent organization's user may also submit for one of its sub-organizations
     * (decided by the parent's policies, recorded in the sub-organization); see the class comment.
     */
    public ActivitySpec initiatedByParent() {
        return new ActivitySpec(operation, resource, action, versions, effect, acceptsAppProofs, true);
    }
}
