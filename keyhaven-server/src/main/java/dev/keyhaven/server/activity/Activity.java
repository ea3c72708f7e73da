package dev.keyhaven.server.activity;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * An activity as stored: the audit record of one state change.
 *
 * @param intent the wire {@code intent} object: one member, keyed by the version's intent key, holding the
 *        submitted parameters verbatim
 * @param result the wire {@code result} object: empty until the activity completes, then one member keyed by the
 *        version's result key
 * @param fingerprint the request time, then the SHA-256 of the exact request body ({@link Fingerprint}); unique within
 *        the organization
 * @param appProofs the app proofs of its decisions, in order; empty when its request did not set
 *        {@code generateAppProofs} (a request that did always has at least the policy outcome's)
 */
public record Activity(
        String id,
        String organizationId,
        ActivityType type,
        ActivityStatus status,
        JsonNode intent,
        JsonNode result,
        Optional<Failure> failure,
        String fingerprint,
        List<Vote> votes,
        Instant createdAt,
        Instant updatedAt,
        List<AppProof> appProofs) {

    public Activity {
        votes = List.copyOf(votes);
        appProofs = List.copyOf(appProofs);
    }

    /** An activity without app proofs. */
    public Activity(
            String id,
            String organizationId,
            ActivityType type,
            ActivityStatus status,
            JsonNode intent,
            JsonNode result,
            Optional<Failure> failure,
            String fingerprint,
            List<Vote> votes,
            Instant createdAt,
            Instant updatedAt) {
        this(
                id,
                organizationId,
                type,
                status,
                intent,
                result,
                failure,
                fingerprint,
                votes,
                createdAt,
                updatedAt,
                List.of());
    }

    public Activity withOutcome(
            ActivityStatus newStatus, JsonNode newResult, Optional<Failure> newFailure, Instant at) {
        return new Activity(
                id,
                organizationId,
                type,
                newStatus,
                intent,
                newResult,
                newFailure,
                fingerprint,
                votes,
                createdAt,
                at,
                appProofs);
    }

    public Activity withVotes(List<Vote> newVotes) {
        return new Activity(
                id,
                organizationId,
                type,
                status,
                intent,
                result,
                failure,
                fingerprint,
                newVotes,
                createdAt,
                updatedAt,
                appProofs);
    }

    public Activity withAppProofs(List<AppProof> proofs) {
        return new Activity(
                id,
                organizationId,
                type,
                status,
                intent,
                result,
                failure,
                fingerprint,
                votes,
                createdAt,
                updatedAt,
                proofs);
    }

    public boolean hasVoteBy(String userId) {
        return votes.stream().anyMatch(v -> v.userId().equals(userId));
    }

    /**
     * Whether the user has a vote that still counts at {@code now}: a rejection, or an approval younger than
     * {@link ActivityService#APPROVALS_EXPIRE_AFTER}. A user whose approval expired may approve again.
     */
    public boolean hasCurrentVoteBy(String userId, Instant now) {
        Instant oldest = now.minus(ActivityService.APPROVALS_EXPIRE_AFTER);
        return votes.stream()
                .anyMatch(v -> v.userId().equals(userId)
                        && (v.selection() == VoteSelection.REJECTED
                                || !v.createdAt().isBefore(oldest)));
    }
}
