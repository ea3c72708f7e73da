package dev.keyhaven.server.user;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import java.util.List;

/**
 * {@code create_api_only_users}: the older way to create users that hold only API keys (sent by {@code @turnkey/http}
 * and by {@code @turnkey/sdk-server} up to 5.x). It is {@code create_users} with neither passkeys nor OAuth
 * providers, and with P-256 keys (its key parameters have no curve): same limits, same checks, same policy resource.
 */
final class CreateApiOnlyUsersHandler implements ActivityHandler<List<NewUser>> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "create_api_only_users",
            ActivityResource.USER,
            ActivityAction.CREATE,
            new ActivityVersion(
                    ActivityType.CREATE_API_ONLY_USERS, "createApiOnlyUsersIntent", "createApiOnlyUsersResult"));

    private final UserCreator creator;

    CreateApiOnlyUsersHandler(UserCreator creator) {
        this.creator = creator;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public List<NewUser> parse(Params parameters) {
        List<NewUser> users = parameters.requiredObjects("apiOnlyUsers", NewUser::readApiOnly);
        if (users.isEmpty()) {
            throw ApiException.badField(parameters.pathOf("apiOnlyUsers"), "must name at least one user");
        }
        return users;
    }

    @Override
    public Object execute(ActivityContext context, List<NewUser> users) {
        return new Result(creator.create(context.tx(), context.organizationId(), users, context.now(), context.ids()));
    }

    /** {@code createApiOnlyUsersResult}. */
    public record Result(List<String> userIds) {}
}
