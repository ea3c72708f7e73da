package dev.keyhaven.server.policy;

import dev.keyhaven.server.tx.Tx;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** Storage of policies. Names are unique within an organization. */
public interface PolicyRepository {

    void insert(Tx tx, Policy policy);

    void update(Tx tx, Policy policy);

    /** Deletes the policies with these ids; returns how many there were. */
    int delete(Tx tx, String organizationId, Collection<String> policyIds);

    Optional<Policy> find(Tx tx, String organizationId, String policyId);

    boolean nameTaken(Tx tx, String organizationId, String name);

    /** The organization's policies, oldest first. */
    List<Policy> list(Tx tx, String organizationId);

    int count(Tx tx, String organizationId);

    /** Those of {@code policyIds} that are not policies of the organization. */
    List<String> missing(Tx tx, String organizationId, Collection<String> policyIds);
}
