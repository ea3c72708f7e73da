package dev.keyhaven.server.user;

import dev.keyhaven.policy.Value;
import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.activity.PolicyFacts;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.state.StateReads;
import java.util.List;
import java.util.Map;

/**
 * {@code delete_users}: deletes users with their credentials. A root-quorum member cannot be deleted (the quorum
 * would lose a member it counts on); change the quorum first.
 */
final class DeleteUsersHandler implements ActivityHandler<List<String>> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "delete_users",
            ActivityResource.USER,
            ActivityAction.DELETE,
            new ActivityVersion(ActivityType.DELETE_USERS, "deleteUsersIntent", "deleteUsersResult"));

    private final UserRepository users;

    public DeleteUsersHandler(UserRepository users) {
        this.users = users;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public List<String> parse(Params parameters) {
        return parameters.requiredIds("userIds", "user");
    }

    /** {@code activity.params.user_ids}. */
    @Override
    public PolicyFacts policyFacts(StateReads organization, List<String> userIds) {
        return PolicyFacts.params(Map.of("user_ids", Value.strings(userIds)));
    }

    @Override
    public Object execute(ActivityContext context, List<String> userIds) {
        String org = context.organizationId();
        users.lockOrganization(context.tx(), org);
        List<String> missing = users.missingUsers(context.tx(), org, userIds);
        ApiException.requireNoneMissing("user", missing);
        List<String> quorum = users.rootQuorumUserIds(context.tx(), org);
        List<String> inQuorum = userIds.stream().filter(quorum::contains).toList();
        if (!inQuorum.isEmpty()) {
            throw ApiException.badRequest("quorum users missing: cannot delete root quorum member(s) "
                    + String.join(", ", inQuorum) + "; update the root quorum first");
        }
        userIds.forEach(id -> users.delete(context.tx(), org, id));
        return new Result(userIds);
    }

    /** {@code deleteUsersResult}. */
    public record Result(List<String> userIds) {}
}
