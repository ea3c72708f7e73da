package dev.keyhaven.server.activity;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.state.StateReads;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.Optional;

/**
 * Decides again on a recorded activity, writing nothing: the decision an {@link Authorizer} reaches for it with the
 * approvals it has, at the time of its last vote (so the approvals that counted then count, and {@code time.now} is
 * that time). The request is built as the engine builds it for a submission or a vote
 * ({@link AuthorizationRequest#of}), from the activity's stored intent parsed by its own handler; what policies read
 * about the resources it names (a wallet's label, a key's tags) is read from the organization as it is now.
 *
 * <p>This is what a dry run of a changed policy set runs: the same path that decided the activity, so that with
 * the organization's own authorizer and unchanged data it reaches the recorded decision.
 */
public final class ActivityReplay {
    private final ActivityRepository activities;
    private final ActivityRegistry registry;
    private final VoterDirectory voters;

    public ActivityReplay(ActivityRepository activities, ActivityRegistry registry, VoterDirectory voters) {
        this.activities = activities;
        this.registry = registry;
        this.voters = voters;
    }

    /** A recorded activity, the decision reached on it again, and the time it was reached for. */
    public record Replayed(Activity activity, Decision decision, Instant at) {}

    /**
     * Replays the organization's activity {@code activityId} in {@code tx} with {@code authorizer}.
     *
     * @throws ApiException 404 when the organization has no such activity; 400 when it is not decided by its
     *     organization's authorization (a vote, or a sign-in a parent organization's user initiated, which the
     *     parent's policies decided), or its intent no longer reads as its type
     */
    public Replayed replay(Tx tx, String organizationId, String activityId, Authorizer authorizer) {
        Activity activity = activities
                .find(tx, organizationId, activityId)
                .orElseThrow(() -> ApiException.notFound(
                        "no activity found with id " + activityId + " in organization " + organizationId));
        ActivityHandler<?> handler = registry.forType(activity.type())
                .filter(h -> !(h instanceof VoteHandler))
                .orElseThrow(() -> ApiException.badRequest(
                        "activity " + activityId + " (" + activity.type().wireName() + ") is not decided by policies"));
        return replay(tx, activity, handler, authorizer);
    }

    private <P> Replayed replay(Tx tx, Activity activity, ActivityHandler<P> handler, Authorizer authorizer) {
        StateReads reads = StateReads.in(tx, activity.organizationId());
        Optional<String> submitter = activity.votes().stream().findFirst().map(Vote::userId);
        if (handler.spec().parentInitiated()
                && submitter.isPresent()
                && !voters.userIds(reads).contains(submitter.get())) {
            throw ApiException.badRequest("activity " + activity.id() + " was submitted by a user of the parent "
                    + "organization, whose policies decided it; a dry run evaluates the organization's own policies");
        }
        P params;
        try {
            String intentKey = registry.version(activity.type()).orElseThrow().intentKey();
            params = handler.parse(Params.of(activity.intent().get(intentKey), "parameters"), activity.type());
        } catch (ApiException unreadable) {
            // Only a stricter reading of the type since it was recorded could do this: refuse rather than guess.
            throw new ApiException(
                    ErrorCode.BAD_REQUEST,
                    "the recorded intent of activity " + activity.id() + " no longer reads as "
                            + activity.type().wireName() + " (" + unreadable.getMessage() + ")");
        }
        Instant at = activity.votes().isEmpty()
                ? activity.updatedAt()
                : activity.votes().getLast().createdAt();
        AuthorizationRequest request = AuthorizationRequest.of(reads, reads, activity, handler, params, at);
        return new Replayed(activity, authorizer.decide(reads, request), at);
    }
}
