package dev.keyhaven.server.activity;

import dev.keyhaven.server.state.StateReads;
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

    /**
     * What the authorizer decides on for {@code activity} with the votes it has, at {@code now}: the one way the
     * engine builds it, for a submission, a vote and a dry run ({@link ActivityReplay}) alike.
     *
     * @param reads the activity's organization, which the handler's policy facts read
     * @param authority the organization whose policies and root quorum decide (see the class comment)
     */
    static <P> AuthorizationRequest of(
            StateReads reads,
            StateReads authority,
            Activity activity,
            ActivityHandler<P> handler,
            P params,
            Instant now) {
        return new AuthorizationRequest(
                authority.organizationId(),
                activity.type(),
                handler.spec().resource(),
                handler.spec().action(),
                approvals(activity, now),
                voterIds(activity, now),
                handler.credentialOwner(params),
                () -> handler.policyFacts(reads, params),
                now);
    }

    /** The approvals that count at {@code now}: none older than {@link ActivityService#APPROVALS_EXPIRE_AFTER}. */
    private static List<Vote> approvals(Activity activity, Instant now) {
        Instant oldest = now.minus(ActivityService.APPROVALS_EXPIRE_AFTER);
        return activity.votes().stream()
                .filter(v -> v.selection() == VoteSelection.APPROVED
                        && !v.createdAt().isBefore(oldest))
                .toList();
    }

    /** The users whose votes still count: they cannot vote again. */
    private static List<String> voterIds(Activity activity, Instant now) {
        return activity.votes().stream()
                .filter(v -> activity.hasCurrentVoteBy(v.userId(), now))
                .map(Vote::userId)
                .distinct()
                .toList();
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
