package dev.keyhaven.server.policy;

import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.AuthorizationRequest;
import dev.keyhaven.server.activity.Authorizer;
import dev.keyhaven.server.activity.Decision;
import dev.keyhaven.server.organization.Organization;
import dev.keyhaven.server.organization.OrganizationRepository;
import dev.keyhaven.server.organization.RootQuorum;
import dev.keyhaven.server.state.StateReads;
import java.util.EnumSet;
import java.util.Set;

/**
 * The authorization rules that apply without policies, in the real service's order: enough root-quorum approvals
 * allow anything; root-quorum-only activities need the quorum; a user may manage their own credentials; a root
 * user's activity waits for the rest of the quorum; anything else is denied implicitly.
 */
public final class RootQuorumAuthorizer implements Authorizer {
    /** Activities that only the root quorum may perform, whatever the policies say. */
    static final Set<ActivityType> ROOT_QUORUM_ONLY = EnumSet.of(ActivityType.UPDATE_ROOT_QUORUM,
            ActivityType.SET_ORGANIZATION_FEATURE, ActivityType.REMOVE_ORGANIZATION_FEATURE,
            ActivityType.UPDATE_ORGANIZATION_NAME);

    private final OrganizationRepository organizations;

    /** The lookup of the organization with its root quorum. */
    private record OrganizationLookup() {
    }

    public RootQuorumAuthorizer(OrganizationRepository organizations) {
        this.organizations = organizations;
    }

    @Override
    public Decision decide(StateReads organization, AuthorizationRequest request) {
        Organization org = organization.get(new OrganizationLookup(),
                tx -> organizations.find(tx, organization.organizationId()).orElseThrow());
        RootQuorum quorum = org.rootQuorum();
        long rootApprovals = request.approverUserIds().stream().filter(quorum.userIds()::contains).count();
        if (rootApprovals >= quorum.threshold()) {
            return new Decision.Allow("root quorum approved (" + rootApprovals + " of " + quorum.threshold() + ")");
        }
        if (!ROOT_QUORUM_ONLY.contains(request.type()) && request.credentialOwner().isPresent()
                && request.approverUserIds().contains(request.credentialOwner().get())) {
            return new Decision.Allow("users may manage their own credentials");
        }
        if (rootApprovals > 0) {
            return new Decision.NeedsConsensus("root quorum needs " + quorum.threshold() + " approvals, has "
                    + rootApprovals);
        }
        return new Decision.Deny("request not authorized: no policy allows " + request.type().wireName()
                + " for this user (implicit deny); only the root quorum may act on " + request.resource().wireName()
                + (ROOT_QUORUM_ONLY.contains(request.type()) ? ""
                        : ", and users may manage only their own credentials"));
    }
}
