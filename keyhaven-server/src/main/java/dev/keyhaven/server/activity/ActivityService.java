package dev.keyhaven.server.activity;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.api.WireTime;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.tx.Tx;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs submitted activities. For one submission it checks the envelope, answers a byte-identical resubmission with
 * the existing activity (counting another user's identical stamp as that user's approval), validates the
 * parameters, and then, in one transaction, records the activity and the submitter's vote, asks the
 * {@link Authorizer}, and executes the handler when allowed. Either the activity and all its effects commit together
 * or nothing does.
 */
public final class ActivityService {
    private final Transactor transactor;
    private final ActivityRepository activities;
    private final ActivityRegistry registry;
    private final Authorizer authorizer;
    private final VoterDirectory voters;
    private final ActivityMetrics metrics;
    private final ObjectMapper json;
    private final Clock clock;
    private final Ids ids;

    public ActivityService(Transactor transactor, ActivityRepository activities, ActivityRegistry registry,
            Authorizer authorizer, VoterDirectory voters, ActivityMetrics metrics, ObjectMapper json, Clock clock,
            Ids ids) {
        this.transactor = transactor;
        this.activities = activities;
        this.registry = registry;
        this.authorizer = authorizer;
        this.voters = voters;
        this.metrics = metrics;
        this.json = json;
        this.clock = clock;
        this.ids = ids;
    }

    /**
     * Submits the activity in {@code body} (already authenticated: {@code caller} stamped {@code rawBody}).
     *
     * @return the activity after this submission: completed, failed by authorization, or waiting for consensus
     * @throws ApiException for an invalid request (nothing is recorded), or when executing the activity broke a
     *         rule (the activity is recorded as failed, without any of its effects)
     */
    public Activity submit(String operation, Caller caller, byte[] rawBody, Params body) {
        ActivityHandler<?> handler = registry.forOperation(operation)
                .orElseThrow(() -> new ApiException(ErrorCode.UNKNOWN_OPERATION, "unknown operation: " + operation));
        SubmitEnvelope envelope = SubmitEnvelope.read(body, handler, clock.instant());
        if (!caller.isMember()) {
            throw new ApiException(ErrorCode.INVALID_ACTIVITY_CALLER, "organization mismatch: request is targeting "
                    + "organization (" + caller.organizationId() + "), but voters are in organization ("
                    + caller.userOrganizationId() + ")");
        }
        return run(handler, envelope, caller, rawBody);
    }

    private <P> Activity run(ActivityHandler<P> handler, SubmitEnvelope envelope, Caller caller, byte[] rawBody) {
        String fingerprint = Fingerprint.of(rawBody);
        // A byte-identical resubmission is found by the unique fingerprint when its activity row is inserted, which
        // spares the common case (a new activity) a lookup of its own.
        P params = handler.parse(envelope.parameters());
        ObjectNode intent = json.createObjectNode();
        intent.set(envelope.version().intentKey(), envelope.parameters().node());
        try {
            Activity activity = transactor.write(tx -> {
                Activity created = newActivity(envelope, intent, fingerprint, ActivityStatus.PENDING,
                        Optional.empty());
                activities.insert(tx, created);
                Vote vote = approval(tx, created, caller);
                activities.insertVote(tx, created.organizationId(), vote);
                return advance(tx, created.withVotes(List.of(vote)), handler, params, caller);
            });
            metrics.recorded(activity.type(), activity.status());
            return activity;
        } catch (Transactor.ConstraintViolation collision) {
            // Either the body was submitted before (answer as for any resubmission), or an effect collided with a
            // concurrent change of the same data (the activity fails and can be retried).
            Optional<Activity> twin = transactor.read(
                    tx -> activities.findByFingerprint(tx, envelope.organizationId(), fingerprint));
            if (twin.isPresent()) {
                return resubmitted(twin.get(), handler, caller);
            }
            ApiException conflict = new ApiException(ErrorCode.CONFLICT, "the activity conflicted with a concurrent "
                    + "change of the same data; submit it again with a new timestampMs");
            recordFailure(envelope, intent, fingerprint, caller, conflict);
            throw conflict;
        } catch (ApiException executionFailed) {
            recordFailure(envelope, intent, fingerprint, caller, executionFailed);
            throw executionFailed;
        }
    }

    /** Decides on the activity with its current votes and, when allowed, executes it. */
    private <P> Activity advance(Tx tx, Activity activity, ActivityHandler<P> handler, P params, Caller caller) {
        AuthorizationRequest request = new AuthorizationRequest(activity.organizationId(), activity.type(),
                handler.spec().resource(), handler.spec().action(), approvers(activity),
                handler.credentialOwner(params));
        Decision decision = authorizer.decide(tx, request);
        Instant now = now();
        Activity decided = switch (decision) {
            case Decision.Allow allow -> {
                ActivityContext context = new ActivityContext(tx, activity.organizationId(), activity.id(), caller,
                        now, ids);
                Object result = handler.execute(context, params);
                ObjectNode resultNode = json.createObjectNode();
                resultNode.set(registry.version(activity.type()).orElseThrow().resultKey(), json.valueToTree(result));
                yield activity.withOutcome(ActivityStatus.COMPLETED, resultNode, Optional.empty(), now);
            }
            case Decision.NeedsConsensus consensus ->
                activity.withOutcome(ActivityStatus.CONSENSUS_NEEDED, json.createObjectNode(), Optional.empty(), now);
            case Decision.Deny deny -> activity.withOutcome(ActivityStatus.FAILED, json.createObjectNode(),
                    Optional.of(new Failure(ErrorCode.REQUEST_NOT_AUTHORIZED, deny.reason(), false)), now);
        };
        activities.updateOutcome(tx, decided.id(), decided.status(), decided.result(), decided.failure(), now);
        return decided;
    }

    /**
     * A byte-identical body arrived again. The same user gets the same answer; another user of the organization
     * adds an approval, which may complete an activity that was waiting for consensus.
     */
    private <P> Activity resubmitted(Activity existing, ActivityHandler<P> handler, Caller caller) {
        Optional<Failure> failure = existing.failure();
        if (failure.isPresent() && failure.get().reportedAsError()) {
            throw new ApiException(failure.get().code(), failure.get().message());
        }
        if (existing.status() != ActivityStatus.CONSENSUS_NEEDED || existing.hasVoteBy(caller.userId())) {
            return existing;
        }
        try {
            Activity voted = transactor.write(tx -> {
                Activity current = activities.lockByFingerprint(tx, existing.organizationId(), existing.fingerprint())
                        .orElseThrow();
                if (current.status() != ActivityStatus.CONSENSUS_NEEDED || current.hasVoteBy(caller.userId())) {
                    return current;
                }
                Vote vote = approval(tx, current, caller);
                activities.insertVote(tx, current.organizationId(), vote);
                List<Vote> votes = new ArrayList<>(current.votes());
                votes.add(vote);
                P params = handler.parse(Params.of(current.intent().get(intentKey(current)), "parameters"));
                return advance(tx, current.withVotes(votes), handler, params, caller);
            });
            metrics.recorded(voted.type(), voted.status());
            return voted;
        } catch (ApiException executionFailed) {
            transactor.write(tx -> {
                activities.updateOutcome(tx, existing.id(), ActivityStatus.FAILED, json.createObjectNode(),
                        Optional.of(new Failure(executionFailed.code(), executionFailed.getMessage(), true)), now());
                return null;
            });
            metrics.recorded(existing.type(), ActivityStatus.FAILED);
            throw executionFailed;
        }
    }

    /** Records a submission whose execution failed: the activity and the vote, none of the effects. */
    private void recordFailure(SubmitEnvelope envelope, ObjectNode intent, String fingerprint, Caller caller,
            ApiException error) {
        try {
            transactor.write(tx -> {
                Activity failed = newActivity(envelope, intent, fingerprint, ActivityStatus.FAILED,
                        Optional.of(new Failure(error.code(), error.getMessage(), true)));
                activities.insert(tx, failed);
                activities.insertVote(tx, failed.organizationId(), approval(tx, failed, caller));
                return null;
            });
            metrics.recorded(envelope.version().type(), ActivityStatus.FAILED);
        } catch (Transactor.ConstraintViolation alreadyRecorded) {
            // A concurrent identical submission recorded the activity first; its record stands.
        }
    }

    private Activity newActivity(SubmitEnvelope envelope, ObjectNode intent, String fingerprint,
            ActivityStatus status, Optional<Failure> failure) {
        Instant now = now();
        return new Activity(ids.next(), envelope.organizationId(), envelope.version().type(), status, intent,
                json.createObjectNode(), failure, fingerprint, List.of(), now, now);
    }

    private Vote approval(Tx tx, Activity activity, Caller caller) {
        Caller.StampRecord stamp = caller.stamp();
        JsonNode user = voters.userSnapshot(tx, caller.userOrganizationId(), caller.userId());
        return new Vote(ids.next(), activity.id(), caller.userId(), user, VoteSelection.APPROVED, stamp.message(),
                stamp.publicKey(), stamp.signature(), stamp.scheme(), now());
    }

    private static List<String> approvers(Activity activity) {
        return activity.votes().stream().filter(v -> v.selection() == VoteSelection.APPROVED).map(Vote::userId)
                .distinct().toList();
    }

    private String intentKey(Activity activity) {
        return registry.version(activity.type()).orElseThrow().intentKey();
    }

    private Instant now() {
        return WireTime.truncate(clock.instant());
    }
}
