package dev.keyhaven.server.user;

import static dev.keyhaven.server.activity.VersionTable.version;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.VersionTable;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.oidc.OidcVerifier;
import java.util.List;

/** {@code create_users}: creates users with their API keys, authenticators, OAuth providers and tags. */
public final class CreateUsersHandler implements ActivityHandler<List<NewUser>> {
    /** {@code v1UserParamsV4}. */
    static final NewUser.Shape V4 = NewUser.Shape.CURRENT;
    /** {@code v1UserParamsV3}: OAuth providers by {@code oidcToken} only. */
    static final NewUser.Shape V3 = V4.oauthProviders(NewUser.OauthProviders.TOKENS_ONLY);
    /** {@code v1UserParamsV2}: no phone number, no OAuth providers, API keys without a curve (P-256). */
    static final NewUser.Shape V2 =
            V4.withoutPhoneNumber().oauthProviders(NewUser.OauthProviders.NONE).p256ApiKeys();
    /** {@code v1UserParams}: V2 with the browser's raw credential for each authenticator (and an unused accessType). */
    static final NewUser.Shape V1 = V2.withRawCredentialAuthenticators();

    private final VersionTable<List<NewUser>> versions;
    private final ActivitySpec spec;
    private final UserCreator creator;
    private final AttestationVerifier attestations;
    private final OidcVerifier oidc;

    public CreateUsersHandler(UserCreator creator, AttestationVerifier attestations, OidcVerifier oidc) {
        this.creator = creator;
        this.attestations = attestations;
        this.oidc = oidc;
        // Every version's result is createUsersResult {userIds}.
        this.versions = VersionTable.of(
                version(ActivityType.CREATE_USERS_V4, "createUsersIntentV4", "createUsersResult", p -> read(p, V4)),
                version(ActivityType.CREATE_USERS_V3, "createUsersIntentV3", "createUsersResult", p -> read(p, V3)),
                version(ActivityType.CREATE_USERS_V2, "createUsersIntentV2", "createUsersResult", p -> read(p, V2)),
                version(ActivityType.CREATE_USERS, "createUsersIntent", "createUsersResult", p -> read(p, V1)));
        this.spec = ActivitySpec.of("create_users", ActivityResource.USER, ActivityAction.CREATE, versions);
    }

    @Override
    public ActivitySpec spec() {
        return spec;
    }

    @Override
    public List<NewUser> parse(Params parameters) {
        return parse(parameters, ActivityType.CREATE_USERS_V4);
    }

    @Override
    public List<NewUser> parse(Params parameters, ActivityType type) {
        return versions.read(parameters, type);
    }

    private List<NewUser> read(Params parameters, NewUser.Shape shape) {
        List<NewUser> users = parameters.requiredObjects("users", u -> NewUser.read(u, shape, attestations, oidc));
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
