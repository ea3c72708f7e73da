package dev.keyhaven.server.activity;

import dev.keyhaven.server.api.Pagination;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Storage of activities and their votes. Activities are never deleted. Every change it makes is also appended to the
 * organization's tamper-evident log (package {@code audit}) in the same transaction.
 */
public interface ActivityRepository {

    /**
     * Inserts a new activity (its votes are inserted separately).
     *
     * @throws dev.keyhaven.server.tx.Transactor.ConstraintViolation when the organization already has an
     *         activity with this fingerprint
     */
    void insert(Tx tx, Activity activity);

    void updateOutcome(
            Tx tx,
            String organizationId,
            String activityId,
            ActivityStatus status,
            JsonNode result,
            Optional<Failure> failure,
            Instant updatedAt);

    void insertVote(Tx tx, String organizationId, Vote vote);

    /** Replaces the activity's app proofs (only activities whose request asked for them have any). */
    void updateAppProofs(Tx tx, String organizationId, String activityId, List<AppProof> proofs);

    /**
     * Inserts a new activity with its one vote (the submitter's) and returns its organization's state version as
     * the insert saw it (in the same statement where the store allows), so that a caller that ran on another version
     * can roll the insert back.
     *
     * @throws dev.keyhaven.server.tx.Transactor.ConstraintViolation when the organization already has an
     *         activity with this fingerprint
     */
    long insertSeeingStateVersion(Tx tx, Activity activity);

    Optional<Activity> find(Tx tx, String organizationId, String activityId);

    Optional<Activity> findByFingerprint(Tx tx, String organizationId, String fingerprint);

    /** Like {@link #findByFingerprint} but locks the activity row until the transaction ends. */
    Optional<Activity> lockByFingerprint(Tx tx, String organizationId, String fingerprint);

    /** Whether an activity with this id exists in the organization (used to validate pagination cursors). */
    boolean exists(Tx tx, String organizationId, String activityId);

    /**
     * Activities of an organization, newest first (by creation time, then id), filtered by status and type when
     * the sets are non-empty, one page at a time.
     */
    List<Activity> list(
            Tx tx, String organizationId, Set<ActivityStatus> statuses, Set<ActivityType> types, Pagination page);
}
