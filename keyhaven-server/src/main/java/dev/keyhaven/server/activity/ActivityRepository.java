package dev.keyhaven.server.activity;

import dev.keyhaven.server.api.Pagination;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
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

    /** An activity with its one vote made ready to be written (serialised), before its write transaction. */
    interface Prepared {}

    /**
     * Serialises {@code activity} and its one vote (the submitter's) for {@link #insertAtStateVersion}: work done
     * outside the write transaction, so that it runs in parallel rather than in the store's serial writer.
     */
    Prepared prepare(Activity activity);

    /**
     * Inserts a prepared activity with its vote, provided its organization is still at {@code stateVersion} when the
     * transaction commits; if it is not, the transaction fails with {@code moved}'s exception and rolls back. The
     * store checks at once, or (grouping several such writes into one transaction) inserts the rows and checks the
     * version just before the commit, which then fails.
     *
     * @throws dev.keyhaven.server.tx.Transactor.ConstraintViolation when the organization already has an
     *         activity with this fingerprint (possibly from the commit)
     */
    void insertAtStateVersion(Tx tx, Prepared activity, long stateVersion, Supplier<? extends RuntimeException> moved);

    Optional<Activity> find(Tx tx, String organizationId, String activityId);

    Optional<Activity> findByFingerprint(Tx tx, String organizationId, String fingerprint);

    /**
     * Until when a submitted body may have been recorded under its bare hash by a server before schema V18
     * ({@link Fingerprint}); empty when the database had no activities then.
     */
    Optional<Instant> unprefixedFingerprintsUntil(Tx tx);

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
