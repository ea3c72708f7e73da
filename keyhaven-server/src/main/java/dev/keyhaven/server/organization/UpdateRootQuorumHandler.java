package dev.keyhaven.server.organization;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.user.UserRepository;
import java.util.List;
import java.util.Map;

/** {@code update_root_quorum}: replaces the root quorum's members and threshold. Only the root quorum may do it. */
final class UpdateRootQuorumHandler implements ActivityHandler<RootQuorum> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "update_root_quorum",
            ActivityResource.ORGANIZATION,
            ActivityAction.UPDATE,
            new ActivityVersion(ActivityType.UPDATE_ROOT_QUORUM, "updateRootQuorumIntent", "updateRootQuorumResult"));

    private final OrganizationRepository organizations;
    private final UserRepository users;

    public UpdateRootQuorumHandler(OrganizationRepository organizations, UserRepository users) {
        this.organizations = organizations;
        this.users = users;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public RootQuorum parse(Params p) {
        int threshold = p.requiredInt("threshold");
        List<String> userIds = p.requiredIds("userIds", "user");
        if (threshold < 1 || threshold > userIds.size()) {
            throw ApiException.badField(
                    p.pathOf("threshold"),
                    "is invalid: quorum threshold must be non-zero " + "integer no larger than the number of users ("
                            + userIds.size() + ")");
        }
        return new RootQuorum(threshold, userIds);
    }

    @Override
    public Object execute(ActivityContext context, RootQuorum quorum) {
        // Serialised with delete_users, which must not delete a user this change makes a quorum member.
        users.lockOrganization(context.tx(), context.organizationId());
        List<String> missing = users.missingUsers(context.tx(), context.organizationId(), quorum.userIds());
        ApiException.requireNoneMissing("user", missing);
        organizations.setRootQuorum(context.tx(), context.organizationId(), quorum, context.now());
        return Map.of();
    }
}
