package dev.keyhaven.server.organization;

import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.Optional;

/** Storage of organizations and their root quorums. */
public interface OrganizationRepository {

    /** Inserts the organization; its root quorum is set separately, once its users exist. */
    void insert(Tx tx, Organization organization);

    Optional<Organization> find(Tx tx, String organizationId);

    /** Whether any organization exists (an initialised store has its root organization). */
    boolean anyExists(Tx tx);

    /** The organization without a parent, if the store is initialised. */
    Optional<Organization> findRoot(Tx tx);

    /** The names of a user and of the organization it belongs to, read together (what whoami reports). */
    Optional<MemberNames> memberNames(Tx tx, String organizationId, String userId);

    /** An organization's name and one of its users' name. */
    record MemberNames(String organizationName, String userName) {}

    void rename(Tx tx, String organizationId, String name, Instant updatedAt);

    void setRootQuorum(Tx tx, String organizationId, RootQuorum quorum, Instant updatedAt);
}
