package dev.keyhaven.server.activity;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the authorizer decides on: the organization whose policies and root quorum decide (the activity's own, or the
 * parent's for a sign-in a parent initiated for its sub-organization, {@link ActivitySpec#parentInitiated}), the type, what it acts on, the approvals that count
 * (the submitter's first; none older than {@link ActivityService#APPROVALS_EXPIRE_AFTER}), the users who voted at
 * all (they cannot vote again), the user whose own credentials it manages, if any, what policies may read about it
 * (computed only if a policy is evaluated) and the time of the decision.
 */
public record AuthorizationRequest(
        String organizationId,
        ActivityType type,
        ActivityResource resource,
        ActivityAction action,
        List<Vote> approvals,
        List<String> voterIds,
        Optional<String> credentialOwner,
        Supplier<PolicyFacts> facts,
        Instant now) {

    public AuthorizationRequest {
        approvals = List.copyOf(approvals);
        voterIds = List.copyOf(voterIds);
    }

    /** The distinct users whose approvals count, in voting order. */
    public List<String> approverUserIds() {
        return approvals.stream().map(Vote::userId).distinct().toList();
    }

    /** {@code activity.kind}: the type without its prefix and version, e.g. {@code SIGN_RAW_PAYLOAD}. */
    public String kind() {
        return type.name().replaceFirst("_V\\d+$", "");
    }
}
