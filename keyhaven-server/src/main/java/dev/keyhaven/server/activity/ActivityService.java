package dev.keyhaven.server.activity;

import dev.keyhaven.policy.engine.Outcome;
import dev.keyhaven.policy.engine.PolicyOutcome;
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
import java.time.Duration;
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
 *
 * <p>Votes: an activity waiting in CONSENSUS_NEEDED collects approvals ({@code approve_activity}, or the same body
 * stamped by another user) and rejections ({@code reject_activity}, terminal). Each vote is recorded with the policy
 * evaluation it caused, under a lock on the activity, so that concurrent approvals execute it at most once.
 */
public final class ActivityService {
    /** Approvals older than this no longer count (the activity itself stays open). */
    public static final Duration APPROVALS_EXPIRE_AFTER = Duration.ofHours(24);

    static final String NO_TARGET = "No activity found with fingerprint. Consensus activities must target an existing "
            + "activity by fingerprint";
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
    /** Until when a body may have been recorded under its bare hash (schema V18); read on first use. */
    private volatile Instant unprefixedUntil;

    private final AppProver prover;

    public ActivityService(
            Transactor transactor,
            OrganizationStates states,
            ActivityRepository activities,
            ActivityRegistry registry,
            Authorizer authorizer,
            VoterDirectory voters,
            ActivityMetrics metrics,
            ActivityEvents events,
            ObjectMapper json,
            Clock clock,
            Ids ids,
            AppProver prover) {
        this.prover = prover;
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
        return registry.forOperation(operation)
                .map(h -> h.spec().effect() == ActivityEffect.NONE)
                .orElse(false);
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
        if (submission.handler instanceof VoteHandler voting) {
            return vote(submission.organizationId(), (String) submission.params, voting.selection(), caller);
        }
        Optional<Activity> earlier = recordedUnprefixed(submission, rawBody);
        if (earlier.isPresent()) {
            return resubmitted(earlier.get(), submission.handler, caller);
        }
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
    public Activity submitAt(OrganizationState state, String operation, Caller caller, byte[] rawBody, Params body) {
        Submission<?> submission = accept(operation, caller, rawBody, body);
        if (submission.handler.spec().effect() != ActivityEffect.NONE
                || !caller.isMember()
                || !submission.envelope.organizationId().equals(state.organizationId())) {
            throw new IllegalArgumentException(
                    "only activities that change nothing run on a remembered state of " + "their own organization");
        }
        Optional<Activity> earlier = recordedUnprefixed(submission, rawBody);
        if (earlier.isPresent()) {
            return resubmitted(earlier.get(), submission.handler, caller);
        }
        return onState(submission, state);
    }

    /**
     * The activity that a server before schema V18 recorded for this very body under the body's bare hash
     * ({@link Fingerprint}), if the body is timed early enough to have been recorded then: its resubmission is
     * answered as any other. Only in the first minutes after an upgrade is any body timed that early; the horizon is
     * read once.
     */
    private Optional<Activity> recordedUnprefixed(Submission<?> s, byte[] rawBody) {
        Instant until = unprefixedUntil;
        if (until == null) {
            until = transactor.read(activities::unprefixedFingerprintsUntil).orElse(Instant.EPOCH);
            unprefixedUntil = until;
        }
        if (s.envelope.timestamp().isAfter(until)) {
            return Optional.empty();
        }
        String unprefixed = Fingerprint.unprefixed(rawBody);
        return transactor.read(tx -> activities.findByFingerprint(tx, s.organizationId(), unprefixed));
    }

    /** A submission that passed every check that needs no data: what the transaction paths start from. */
    private record Submission<P>(
            ActivityHandler<P> handler,
            SubmitEnvelope envelope,
            Caller caller,
            P params,
            ObjectNode intent,
            String fingerprint) {

        String organizationId() {
            return envelope.organizationId();
        }
    }

    private Submission<?> accept(String operation, Caller caller, byte[] rawBody, Params body) {
        ActivityHandler<?> handler = registry.forOperation(operation)
                .orElseThrow(() -> new ApiException(ErrorCode.UNKNOWN_OPERATION, "unknown operation: " + operation));
        SubmitEnvelope envelope = SubmitEnvelope.read(body, handler, clock.instant());
        if (!envelope.organizationId().equals(caller.organizationId())) {
            // A login addressed to a parent by a user of one of its sub-organizations (the caller was found there):
            // it runs, and is recorded, in the user's sub-organization.
            envelope = envelope.in(caller.organizationId());
        }
        if (!caller.isMember() && !handler.spec().parentInitiated()) {
            // Parents read their sub-organizations; only the sign-ins Turnkey lets a parent initiate are written.
            throw new ApiException(
                    ErrorCode.INVALID_ACTIVITY_CALLER,
                    "organization mismatch: request is targeting "
                            + "organization (" + caller.organizationId() + "), but voters are in organization ("
                            + caller.userOrganizationId() + ")");
        }
        return accepted(handler, envelope, caller, rawBody);
    }

    private <P> Submission<P> accepted(
            ActivityHandler<P> handler, SubmitEnvelope envelope, Caller caller, byte[] rawBody) {
        P params = handler.parse(envelope.parameters(), envelope.version().type());
        ObjectNode intent = json.createObjectNode();
        intent.set(envelope.version().intentKey(), envelope.parameters().node());
        return new Submission<>(
                handler, envelope, caller, params, intent, Fingerprint.of(rawBody, envelope.timestamp()));
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
                StateReads authority = authority(tx, reads, s.caller);
                // Recorded before executing: a byte-identical resubmission collides here, before any effect.
                Activity pending = pending(s, authority);
                activities.insert(tx, pending);
                Activity decided = decide(
                        reads,
                        authority,
                        Optional.of(tx),
                        pending,
                        s.handler,
                        s.params,
                        s.caller,
                        s.envelope.generateAppProofs());
                activities.insertVote(
                        tx, decided.organizationId(), decided.votes().getLast());
                activities.updateOutcome(
                        tx,
                        decided.organizationId(),
                        decided.id(),
                        decided.status(),
                        decided.result(),
                        decided.failure(),
                        decided.updatedAt());
                saveAppProofs(tx, decided);
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
            // Only activities that change nothing run here, and none of them may be initiated by a parent.
            decided = decide(
                    state,
                    state,
                    Optional.empty(),
                    pending(s, state),
                    s.handler,
                    s.params,
                    s.caller,
                    s.envelope.generateAppProofs());
        } catch (ApiException executionFailed) {
            if (!recordFailure(s, executionFailed, Optional.of(state))) {
                return collided(s, Optional.of(state));
            }
            throw executionFailed;
        }
        events.preparing(state);
        ActivityRepository.Prepared record = activities.prepare(decided);
        try {
            // Grouped: concurrent signatures' records commit together (one commit for many on PostgreSQL too).
            transactor.writeGrouped(tx -> {
                activities.insertAtStateVersion(tx, record, state.version(), () -> states.moved(state));
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
        Optional<Activity> twin =
                transactor.read(tx -> activities.findByFingerprint(tx, s.organizationId(), s.fingerprint));
        if (twin.isPresent()) {
            return resubmitted(twin.get(), s.handler, s.caller);
        }
        ApiException conflict = new ApiException(
                ErrorCode.CONFLICT,
                "the activity conflicted with a concurrent "
                        + "change of the same data; submit it again with a new timestampMs");
        recordFailure(s, conflict, state);
        throw conflict;
    }

    /**
     * Decides on the activity with its current votes and, when allowed, executes it. The evaluation is recorded with
     * the activity's last vote, the one that caused this decision.
     */
    private <P> Activity decide(
            StateReads reads,
            StateReads authority,
            Optional<Tx> tx,
            Activity activity,
            ActivityHandler<P> handler,
            P params,
            Caller caller,
            boolean proving) {
        Instant now = now();
        AuthorizationRequest request = AuthorizationRequest.of(reads, authority, activity, handler, params, now);
        Decision decision = authorizer.decide(authority, request);
        Activity evaluated = withLastVoteEvaluated(activity, decision.policies(), decision.overall());
        AddressLog addresses = proving ? AddressLog.keeping() : AddressLog.IGNORED;
        Activity decided = switch (decision) {
            case Decision.Allow allow -> {
                ActivityContext context = new ActivityContext(
                        tx, reads, activity.organizationId(), activity.id(), caller, now, ids, addresses);
                Object result = handler.execute(context, params);
                ObjectNode resultNode = json.createObjectNode();
                ActivityVersion version = registry.version(activity.type()).orElseThrow();
                resultNode.set(
                        version.resultKey(),
                        json.valueToTree(version.resultView().apply(result)));
                yield evaluated.withOutcome(ActivityStatus.COMPLETED, resultNode, Optional.empty(), now);
            }
            case Decision.NeedsConsensus consensus ->
                evaluated.withOutcome(ActivityStatus.CONSENSUS_NEEDED, json.createObjectNode(), Optional.empty(), now);
            case Decision.Deny deny ->
                evaluated.withOutcome(
                        ActivityStatus.FAILED,
                        json.createObjectNode(),
                        Optional.of(new Failure(ErrorCode.REQUEST_NOT_AUTHORIZED, deny.reason(), false)),
                        now);
        };
        return proving ? proved(decided, decision.policies(), decision.overall(), addresses) : decided;
    }

    /** {@code decided} with the app proofs of this decision added to those of earlier ones. */
    private Activity proved(Activity decided, List<PolicyOutcome> policies, Outcome overall, AddressLog addresses) {
        List<CreatedAddress> created = addresses instanceof AddressLog.Kept kept ? kept.addresses() : List.of();
        List<AppProof> proofs = new ArrayList<>(decided.appProofs());
        proofs.addAll(prover.prove(decided, policies, overall, created));
        return decided.withAppProofs(proofs);
    }

    private void saveAppProofs(Tx tx, Activity decided) {
        if (!decided.appProofs().isEmpty()) {
            activities.updateAppProofs(tx, decided.organizationId(), decided.id(), decided.appProofs());
        }
    }

    private Activity withLastVoteEvaluated(Activity activity, List<PolicyOutcome> policies, Outcome overall) {
        List<Vote> votes = new ArrayList<>(activity.votes());
        Vote last = votes.removeLast();
        votes.add(last.withEvaluation(new PolicyEvaluation(ids.next(), policies, overall)));
        return activity.withVotes(votes);
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
        return castVote(existing, handler, caller, VoteSelection.APPROVED).activity();
    }

    /**
     * {@code approve_activity} / {@code reject_activity}: the caller's vote on the organization's activity with this
     * fingerprint. A user who already voted gets the activity as it is; a vote on an activity that no longer waits
     * for consensus is refused (400), since it would not count.
     */
    private Activity vote(String organizationId, String fingerprint, VoteSelection selection, Caller caller) {
        Activity target = transactor
                .read(tx -> activities.findByFingerprint(tx, organizationId, fingerprint))
                .orElseThrow(() -> ApiException.notFound(NO_TARGET));
        ActivityHandler<?> handler = registry.forType(target.type())
                .orElseThrow(() ->
                        new ApiException(ErrorCode.BAD_REQUEST, "activity " + target.id() + " cannot take votes"));
        Cast cast = castVote(target, handler, caller, selection);
        if (!cast.counted()
                && cast.activity().status() != ActivityStatus.CONSENSUS_NEEDED
                && !cast.activity().hasVoteBy(caller.userId())) {
            throw ApiException.badRequest("activity " + target.id() + " is not awaiting consensus (status "
                    + cast.activity().status().wireName() + "); the vote was not recorded");
        }
        return cast.activity();
    }

    /** The activity after a vote, and whether the vote was recorded. */
    private record Cast(Activity activity, boolean counted) {}

    /**
     * Records {@code caller}'s vote on {@code existing} if it still waits for consensus and the caller has not voted,
     * under a lock on the activity (and, for an activity that changes its organization, the organization's state
     * version first, in the same order as submissions take them). An approval re-runs the authorization with every
     * approval that counts and executes the activity when it is allowed; concurrent voters wait for the lock and
     * then see the outcome, so the activity executes at most once. A rejection ends the activity REJECTED.
     */
    private <P> Cast castVote(Activity existing, ActivityHandler<P> handler, Caller caller, VoteSelection selection) {
        if (existing.status() != ActivityStatus.CONSENSUS_NEEDED || existing.hasCurrentVoteBy(caller.userId(), now())) {
            return new Cast(existing, false);
        }
        String org = existing.organizationId();
        boolean changesOrganization = handler.spec().effect() == ActivityEffect.CHANGES_ORGANIZATION;
        try {
            Cast cast = transactor.write(tx -> {
                if (changesOrganization) {
                    states.changing(tx, org);
                }
                Activity current = activities
                        .lockByFingerprint(tx, org, existing.fingerprint())
                        .orElseThrow();
                if (current.status() != ActivityStatus.CONSENSUS_NEEDED
                        || current.hasCurrentVoteBy(caller.userId(), now())) {
                    return new Cast(current, false);
                }
                StateReads reads = StateReads.in(tx, org);
                StateReads authority = authority(tx, reads, caller);
                List<Vote> votes = new ArrayList<>(current.votes());
                votes.add(vote(authority, caller, current.id(), selection));
                // The submission asked for app proofs if it has any: every decision on it adds its own.
                boolean proving = !current.appProofs().isEmpty();
                Activity decided;
                if (selection == VoteSelection.REJECTED) {
                    Activity rejected = withLastVoteEvaluated(current.withVotes(votes), List.of(), Outcome.REJECTED)
                            .withOutcome(ActivityStatus.REJECTED, json.createObjectNode(), Optional.empty(), now());
                    decided = proving ? proved(rejected, List.of(), Outcome.REJECTED, AddressLog.IGNORED) : rejected;
                } else {
                    decided = decide(
                            reads,
                            authority,
                            Optional.of(tx),
                            current.withVotes(votes),
                            handler,
                            handler.parse(
                                    Params.of(current.intent().get(intentKey(current)), "parameters"), current.type()),
                            caller,
                            proving);
                }
                activities.insertVote(tx, org, decided.votes().getLast());
                activities.updateOutcome(
                        tx,
                        decided.organizationId(),
                        decided.id(),
                        decided.status(),
                        decided.result(),
                        decided.failure(),
                        decided.updatedAt());
                saveAppProofs(tx, decided);
                if (decided.status() != current.status()) {
                    events.statusChanged(tx, reads, decided);
                }
                return new Cast(decided, true);
            });
            if (changesOrganization) {
                // The version advanced in the committed transaction even when the vote did not count.
                states.changed(org);
            }
            if (cast.counted()) {
                metrics.recorded(cast.activity().type(), cast.activity().status());
            }
            return cast;
        } catch (ApiException executionFailed) {
            if (executionFailed.code() == ErrorCode.DATABASE_UNAVAILABLE) {
                throw executionFailed;
            }
            // The approval allowed the activity but executing it broke a rule: the approval and the failure stand.
            transactor.write(tx -> {
                activities.insertVote(
                        tx, org, vote(authority(tx, StateReads.in(tx, org), caller), caller, existing.id(), selection));
                Activity failed = existing.withOutcome(
                        ActivityStatus.FAILED,
                        json.createObjectNode(),
                        Optional.of(new Failure(executionFailed.code(), executionFailed.getMessage(), true)),
                        now());
                activities.updateOutcome(
                        tx,
                        failed.organizationId(),
                        failed.id(),
                        failed.status(),
                        failed.result(),
                        failed.failure(),
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
        if (error.code() == ErrorCode.DATABASE_UNAVAILABLE) {
            // Not the activity's failure: nothing is recorded, so the same body sent again runs afresh.
            return true;
        }
        try {
            transactor.write(tx -> {
                state.ifPresent(known -> states.requireCurrent(tx, known));
                StateReads reads = state.<StateReads>map(known -> known).orElse(StateReads.in(tx, s.organizationId()));
                Activity failed = pending(s, authority(tx, reads, s.caller))
                        .withOutcome(
                                ActivityStatus.FAILED,
                                json.createObjectNode(),
                                Optional.of(new Failure(error.code(), error.getMessage(), true)),
                                now());
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

    /**
     * The organization whose policies and root quorum decide on the caller's votes, and where the caller is a user:
     * the activity's own, or, for an activity a parent initiated for its sub-organization (the caller resolved in
     * the parent, which {@link #accept} allows only for {@link ActivitySpec#parentInitiated} operations), the
     * parent's.
     */
    private static StateReads authority(Tx tx, StateReads organization, Caller caller) {
        return caller.isMember() ? organization : StateReads.in(tx, caller.userOrganizationId());
    }

    /** The new activity with the submitter's approval, before any decision. */
    private Activity pending(Submission<?> s, StateReads authority) {
        Instant now = now();
        String id = ids.next();
        return new Activity(
                id,
                s.organizationId(),
                s.envelope.version().type(),
                ActivityStatus.PENDING,
                s.intent,
                json.createObjectNode(),
                Optional.empty(),
                s.fingerprint,
                List.of(vote(authority, s.caller, id, VoteSelection.APPROVED)),
                now,
                now);
    }

    /** Inserts a new activity with its one vote (the submitter's). */
    private void record(Tx tx, Activity activity) {
        activities.insert(tx, activity);
        activities.insertVote(tx, activity.organizationId(), activity.votes().getFirst());
    }

    /** The caller's vote, carried by the stamp of the current request ({@code authority}: where the caller is a user). */
    private Vote vote(StateReads authority, Caller caller, String activityId, VoteSelection selection) {
        Caller.StampRecord stamp = caller.stamp();
        JsonNode user = voters.userSnapshot(authority, caller.userId());
        return new Vote(
                ids.next(),
                activityId,
                caller.userId(),
                user,
                selection,
                stamp.message(),
                stamp.publicKey(),
                stamp.signature(),
                stamp.scheme(),
                now(),
                Optional.empty());
    }

    private String intentKey(Activity activity) {
        return registry.version(activity.type()).orElseThrow().intentKey();
    }

    private Instant now() {
        return WireTime.truncate(clock.instant());
    }
}
