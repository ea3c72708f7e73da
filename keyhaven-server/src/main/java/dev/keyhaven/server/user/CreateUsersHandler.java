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
import dev.keyhaven.server.oidc.OidcVerifier;
import java.util.List;

/** {@code create_users}: creates users with their API keys, authenticators, OAuth providers and tags. */
public final class CreateUsersHandler implements ActivityHandler<List<NewUser>> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "create_users",
            ActivityResource.USER,
            ActivityAction.CREATE,
            new ActivityVersion(ActivityType.CREATE_USERS_V4, "createUsersIntentV4", "createUsersResult"),
            new ActivityVersion(ActivityType.CREATE_USERS_V3, "createUsersIntentV3", "createUsersResult"));

    private final UserCreator creator;
    private final AttestationVerifier attestations;
    private final OidcVerifier oidc;

    public CreateUsersHandler(UserCreator creator, AttestationVerifier attestations, OidcVerifier oidc) {
        this.creator = creator;
        this.attestations = attestations;
        this.oidc = oidc;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public List<NewUser> parse(Params parameters) {
        return parse(parameters, ActivityType.CREATE_USERS_V4);
    }

    /** V3's users ({@code v1UserParamsV3}) register OAuth providers by {@code oidcToken} only. */
    @Override
    public List<NewUser> parse(Params parameters, ActivityType type) {
        boolean tokensOnly = type == ActivityType.CREATE_USERS_V3;
        List<NewUser> users =
                parameters.requiredObjects("users", u -> NewUser.read(u, attestations, oidc, true, tokensOnly));
        if (users.isEmpty()) {
            throw ApiException.badField(parameters.pathOf("users"), "must name at least one user");
        }
        return users;
    }

    @Override
    public Object execute(ActivityContext context, List<NewUser> users) {
        List<String> ids = creator.create(context.tx(), context.organizationId(), users, context.now(), context.ids());
        return new Result(ids);
    }

    /** {@code createUsersResult}. */
    public record Result(List<String> userIds) {}
}
