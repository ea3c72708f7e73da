package dev.keyhaven.server.activity;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.api.WireTime;
import dev.keyhaven.server.state.OrganizationState;
import dev.keyhaven.server.state.OrganizationStates;
import dev.keyhaven.server.state.StaleStateException;
import dev.keyhaven.server.state.StateReads;
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
 * parameters, asks the {@link Authorizer}, executes the handler when allowed, and records the activity with the
 * submitter's vote. Either the activity and all its effects commit together or nothing does.
 *
 * <p>An activity that changes its organization runs entirely in one write transaction that first advances the
 * organization's state version. An activity that changes nothing but its own record (signing) may instead run on
 * an {@link OrganizationState}: authorization and execution use remembered lookups, outside any transaction, and
 * the one short write transaction that records it checks the state version first.
 */
public final class ActivityService {
    private final Transactor transactor;
    private final OrganizationStates states;
    private final ActivityRepository activities;
    private final ActivityRegistry registry;
    private final Authorizer authorizer;
    private final VoterDirectory voters;
    private final ActivityMetrics metrics;
    private final ActivityEvents events;
    private final ObjectMapper json;
    private final Clock clock;
    private final Ids ids;

    public ActivityService(Transactor transactor, OrganizationStates states, ActivityRepository activities,
            ActivityRegistry registry, Authorizer authorizer, VoterDirectory voters, ActivityMetrics metrics,
            ActivityEvents events, ObjectMapper json, Clock clock, Ids ids) {
        this.transactor = transactor;
        this.states = states;
        this.activities = activities;
        this.registry = registry;
        this.authorizer = authorizer;
        this.voters = voters;
        this.metrics = metrics;
        this.events = events;
        this.json = json;
        this.clock = clock;
        this.ids = ids;
    }

    /** Whether the operation's activities may run on an organization's remembered state ({@link #submitAt}). */
    public boolean runsOnRememberedState(String operation) {
        return registry.forOperation(operation).map(h -> h.spec().effect() == ActivityEffect.NONE).orElse(false);
    }

    /**
     * Submits the activity in {@code body} (already authenticated: {@code caller} stamped {@code rawBody}) in one
     * write transaction.
     *
     * @return the activity after this submission: completed, failed by authorization, or waiting for consensus
     * @throws ApiException for an invalid request (nothing is recorded), or when executing the activity broke a
     *         rule (the activity is recorded as failed, without any of its effects)
     */
    public Activity submit(String operation, Caller caller, byte[] rawBody, Params body) {
        Submission<?> submission = accept(operation, caller, rawBody, body);
        return inTransaction(submission);
    }

    /**
     * Submits an activity that changes nothing but its own record, deciding and executing it on {@code state},
     * whose lookups {@code caller} was also resolved with.
     *
     * @throws StaleStateException when the organization moved on from {@code state} (nothing is recorded; resolve
     *         the caller on a fresh state and submit again)
     * @throws ApiException as for {@link #submit}
     */
    public Activity submitAt(OrganizationState state, String operation, Caller caller, byte[] rawBody,
            Params body) {
        Submission<?> submission = accept(operation, caller, rawBody, body);
        if (submission.handler.spec().effect() != ActivityEffect.NONE
                || !submission.envelope.organizationId().equals(state.organizationId())) {
            throw new IllegalArgumentException("only activities that change nothing run on a remembered state of "
                    + "their own organization");
        }
        return onState(submission, state);
    }

    /** A submission that passed every check that needs no data: what the transaction paths start from. */
    private record Submission<P>(ActivityHandler<P> handler, SubmitEnvelope envelope, Caller caller, P params,
            ObjectNode intent, String fingerprint) {

        String organizationId() {
            return envelope.organizationId();
        }
    }

    private Submission<?> accept(String operation, Caller caller, byte[] rawBody, Params body) {
        ActivityHandler<?> handler = registry.forOperation(operation)
                .orElseThrow(() -> new ApiException(ErrorCode.UNKNOWN_OPERATION, "unknown operation: " + operation));
        SubmitEnvelope envelope = SubmitEnvelope.read(body, handler, clock.instant());
        if (!caller.isMember()) {
            throw new ApiException(ErrorCode.INVALID_ACTIVITY_CALLER, "organization mismatch: request is targeting "
                    + "organization (" + caller.organizationId() + "), but voters are in organization ("
                    + caller.userOrganizationId() + ")");
        }
        return accepted(handler, envelope, caller, rawBody);
    }

    private <P> Submission<P> accepted(ActivityHandler<P> handler, SubmitEnvelope envelope, Caller caller,
            byte[] rawBody) {
        P params = handler.parse(envelope.parameters());
        ObjectNode intent = json.createObjectNode();
        intent.set(envelope.version().intentKey(), envelope.parameters().node());
        return new Submission<>(handler, envelope, caller, params, intent, Fingerprint.of(rawBody));
    }

    private <P> Activity inTransaction(Submission<P> s) {
        boolean changesOrganization = s.handler.spec().effect() == ActivityEffect.CHANGES_ORGANIZATION;
        try {
            Activity activity = transactor.write(tx -> {
                if (changesOrganization) {
                    // First, so that such activities of one organization take its row in the same order.
                    states.changing(tx, s.organizationId());
                }
                StateReads reads = StateReads.in(tx, s.organizationId());
                // Recorded before executing: a byte-identical resubmission collides here, before any effect.
                Activity pending = pending(s, reads);
                record(tx, pending);
                Activity decided = decide(reads, Optional.of(tx), pending, s.handler, s.params, s.caller);
                activities.updateOutcome(tx, decided.id(), decided.status(), decided.result(), decided.failure(),
                        decided.updatedAt());
                events.statusChanged(tx, reads, decided);
                return decided;
            });
            if (changesOrganization) {
                states.changed(s.organizationId());
            }
            metrics.recorded(activity.type(), activity.status());
            return activity;
        } catch (Transactor.ConstraintViolation collision) {
            return collided(s, Optional.empty());
        } catch (ApiException executionFailed) {
            recordFailure(s, executionFailed, Optional.empty());
            throw executionFailed;
        }
    }

    private <P> Activity onState(Submission<P> s, OrganizationState state) {
        Activity decided;
        try {
            decided = decide(state, Optional.empty(), pending(s, state), s.handler, s.params, s.caller);
        } catch (ApiException executionFailed) {
            if (!recordFailure(s, executionFailed, Optional.of(state))) {
                return collided(s, Optional.of(state));
            }
            throw executionFailed;
        }
        events.preparing(state);
        try {
            transactor.write(tx -> {
                if (activities.insertSeeingStateVersion(tx, decided) != state.version()) {
                    throw states.moved(state);
                }
                events.statusChanged(tx, state, decided);
                return null;
            });
        } catch (Transactor.ConstraintViolation collision) {
            return collided(s, Optional.of(state));
        }
        metrics.recorded(decided.type(), decided.status());
        return decided;
    }

    /**
     * Recording the activity violated a unique or foreign key: either the body was submitted before (answer as for
     * any resubmission; the unique fingerprint finds it, which spares every new activity a lookup of its own), or an
     * effect collided with a concurrent change of the same data (the activity fails and can be retried).
     */
    private <P> Activity collided(Submission<P> s, Optional<OrganizationState> state) {
        Optional<Activity> twin = transactor.read(
                tx -> activities.findByFingerprint(tx, s.organizationId(), s.fingerprint));
        if (twin.isPresent()) {
            return resubmitted(twin.get(), s.handler, s.caller);
        }
        ApiException conflict = new ApiException(ErrorCode.CONFLICT, "the activity conflicted with a concurrent "
                + "change of the same data; submit it again with a new timestampMs");
        recordFailure(s, conflict, state);
        throw conflict;
    }

    /** Decides on the activity with its current votes and, when allowed, executes it. */
    private <P> Activity decide(StateReads reads, Optional<Tx> tx, Activity activity, ActivityHandler<P> handler,
            P params, Caller caller) {
        AuthorizationRequest request = new AuthorizationRequest(activity.organizationId(), activity.type(),
                handler.spec().resource(), handler.spec().action(), approvers(activity),
                handler.credentialOwner(params));
        Decision decision = authorizer.decide(reads, request);
        Instant now = now();
        return switch (decision) {
            case Decision.Allow allow -> {
                ActivityContext context = new ActivityContext(tx, reads, activity.organizationId(), activity.id(),
                        caller, now, ids);
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
        boolean changesOrganization = handler.spec().effect() == ActivityEffect.CHANGES_ORGANIZATION;
        try {
            Activity voted = transactor.write(tx -> {
                if (changesOrganization) {
                    states.changing(tx, existing.organizationId());
                }
                Activity current = activities.lockByFingerprint(tx, existing.organizationId(), existing.fingerprint())
                        .orElseThrow();
                if (current.status() != ActivityStatus.CONSENSUS_NEEDED || current.hasVoteBy(caller.userId())) {
                    return current;
                }
                StateReads reads = StateReads.in(tx, current.organizationId());
                Vote vote = approval(reads, caller, current.id());
                activities.insertVote(tx, current.organizationId(), vote);
                List<Vote> votes = new ArrayList<>(current.votes());
                votes.add(vote);
                P params = handler.parse(Params.of(current.intent().get(intentKey(current)), "parameters"));
                Activity decided = decide(reads, Optional.of(tx), current.withVotes(votes), handler, params, caller);
                activities.updateOutcome(tx, decided.id(), decided.status(), decided.result(), decided.failure(),
                        decided.updatedAt());
                if (decided.status() != current.status()) {
                    events.statusChanged(tx, reads, decided);
                }
                return decided;
            });
            if (changesOrganization) {
                states.changed(existing.organizationId());
            }
            metrics.recorded(voted.type(), voted.status());
            return voted;
        } catch (ApiException executionFailed) {
            transactor.write(tx -> {
                Activity failed = existing.withOutcome(ActivityStatus.FAILED, json.createObjectNode(),
                        Optional.of(new Failure(executionFailed.code(), executionFailed.getMessage(), true)), now());
                activities.updateOutcome(tx, failed.id(), failed.status(), failed.result(), failed.failure(),
                        failed.updatedAt());
                events.statusChanged(tx, StateReads.in(tx, failed.organizationId()), failed);
                return null;
            });
            metrics.recorded(existing.type(), ActivityStatus.FAILED);
            throw executionFailed;
        }
    }

    /**
     * Records a submission whose execution failed: the activity and the vote, none of the effects. A failure found on
     * a remembered state is recorded only while the organization is still at it (else the submission runs again).
     *
     * @return false when an identical submission had been recorded already (its record stands)
     */
    private boolean recordFailure(Submission<?> s, ApiException error, Optional<OrganizationState> state) {
        try {
            transactor.write(tx -> {
                state.ifPresent(known -> states.requireCurrent(tx, known));
                StateReads reads = state.<StateReads>map(known -> known).orElse(StateReads.in(tx, s.organizationId()));
                Activity failed = pending(s, reads).withOutcome(ActivityStatus.FAILED, json.createObjectNode(),
                        Optional.of(new Failure(error.code(), error.getMessage(), true)), now());
                record(tx, failed);
                events.statusChanged(tx, reads, failed);
                return null;
            });
            metrics.recorded(s.envelope.version().type(), ActivityStatus.FAILED);
            return true;
        } catch (Transactor.ConstraintViolation alreadyRecorded) {
            return false;
        }
    }

    /** The new activity with the submitter's approval, before any decision. */
    private Activity pending(Submission<?> s, StateReads reads) {
        Instant now = now();
        String id = ids.next();
        return new Activity(id, s.organizationId(), s.envelope.version().type(), ActivityStatus.PENDING, s.intent,
                json.createObjectNode(), Optional.empty(), s.fingerprint, List.of(approval(reads, s.caller, id)), now,
                now);
    }

    /** Inserts a new activity with its one vote (the submitter's). */
    private void record(Tx tx, Activity activity) {
        activities.insert(tx, activity);
        activities.insertVote(tx, activity.organizationId(), activity.votes().getFirst());
    }

    private Vote approval(StateReads reads, Caller caller, String activityId) {
        Caller.StampRecord stamp = caller.stamp();
        JsonNode user = voters.userSnapshot(reads, caller.userId());
        return new Vote(ids.next(), activityId, caller.userId(), user, VoteSelection.APPROVED, stamp.message(),
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
