package dev.keyhaven.server.policy;

import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.VoterDirectory;
import dev.keyhaven.server.organization.OrganizationRepository;
import dev.keyhaven.server.tx.Transactor;
import java.util.List;

/**
 * Policies assembled: the activities that create, change and delete them, the queries that read them, and the
 * {@link PolicyAuthorizer} the activity engine asks whether an activity may run.
 */
public final class PolicyFeature {
    private final PolicyAuthorizer authorizer;
    private final PolicyQueries queries;
    private final List<ActivityHandler<?>> handlers;

    public PolicyFeature(
            Transactor transactor,
            PolicyRepository policies,
            OrganizationRepository organizations,
            VoterDirectory voters) {
        this.authorizer = new PolicyAuthorizer(organizations, policies, voters);
        this.queries = new PolicyQueries(transactor, policies);
        this.handlers = List.of(
                new CreatePolicyHandler(policies),
                new CreatePoliciesHandler(policies),
                new UpdatePolicyHandler(policies),
                DeletePoliciesHandler.single(policies),
                DeletePoliciesHandler.batch(policies));
    }

    public List<ActivityHandler<?>> handlers() {
        return handlers;
    }

    public PolicyAuthorizer authorizer() {
        return authorizer;
    }

    public PolicyQueries queries() {
        return queries;
    }
}
