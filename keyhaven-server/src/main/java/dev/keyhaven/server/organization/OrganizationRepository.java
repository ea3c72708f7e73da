package dev.keyhaven.server.organization;

import dev.keyhaven.server.api.Pagination;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.List;
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

    /** The organization's enabled features, by name. */
    List<FeatureSetting> features(Tx tx, String organizationId);

    /** Enables the feature, or replaces its value. */
    void setFeature(Tx tx, String organizationId, FeatureName name, String value, Instant updatedAt);

    /** Disables the feature; nothing happens if it was not enabled. */
    void removeFeature(Tx tx, String organizationId, FeatureName name);

    /** An enabled feature and its value ({@code ""} when the feature has none). */
    record FeatureSetting(FeatureName name, String value) {}

    /**
     * One page of the ids of {@code parentId}'s sub-organizations that match {@code filter}, in creation order (the
     * id breaks ties); {@code page}'s cursor, if any, is a sub-organization of that parent.
     */
    List<String> subOrganizationIds(Tx tx, String parentId, SubOrganizationFilter filter, Pagination page);

    /** Whether {@code organizationId} holds a wallet or private key that was never exported. */
    boolean holdsUnexportedKeys(Tx tx, String organizationId);

    /**
     * Deletes the organization and everything it holds: users and their credentials, keys, policies and the rest.
     * Its activities and their votes stay, as the audit trail they are.
     */
    void delete(Tx tx, String organizationId);

    /** Records that the user proved they receive their email ({@code email}) or phone number. */
    void markContactVerified(Tx tx, String userId, boolean email);
}
