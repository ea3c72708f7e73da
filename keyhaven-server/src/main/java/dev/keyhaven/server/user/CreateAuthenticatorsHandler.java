package dev.keyhaven.server.user;

import static dev.keyhaven.server.activity.VersionTable.version;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.VersionTable;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import java.util.List;
import java.util.function.Function;

/**
 * {@code create_authenticators}: registers passkeys for a user after verifying their attestations. Users may always
 * add passkeys to themselves.
 */
final class CreateAuthenticatorsHandler implements OwnCredentialsHandler<CreateAuthenticatorsHandler.Intent> {
    private final VersionTable<Intent> versions;
    private final ActivitySpec spec;

    private final UserRepository users;
    private final Credentials credentials;

    public CreateAuthenticatorsHandler(
            UserRepository users, Credentials credentials, AttestationVerifier attestations) {
        this.users = users;
        this.credentials = credentials;
        // V1 (@turnkey/http before 0.17.1) carries the browser's raw credential; both answer
        // createAuthenticatorsResult.
        this.versions = VersionTable.of(
                version(
                        ActivityType.CREATE_AUTHENTICATORS_V2,
                        "createAuthenticatorsIntentV2",
                        "createAuthenticatorsResult",
                        p -> read(p, a -> NewAuthenticator.read(a, attestations))),
                version(
                        ActivityType.CREATE_AUTHENTICATORS,
                        "createAuthenticatorsIntent",
                        "createAuthenticatorsResult",
                        p -> read(p, a -> NewAuthenticator.readV1(a, attestations))));
        this.spec =
                ActivitySpec.of("create_authenticators", ActivityResource.CREDENTIAL, ActivityAction.CREATE, versions);
    }

    /** The validated parameters. */
    public record Intent(String userId, List<NewAuthenticator> authenticators)
            implements OwnCredentialsHandler.OfUser {}

    @Override
    public ActivitySpec spec() {
        return spec;
    }

    @Override
    public Intent parse(Params parameters) {
        return parse(parameters, ActivityType.CREATE_AUTHENTICATORS_V2);
    }

    @Override
    public Intent parse(Params parameters, ActivityType type) {
        return versions.read(parameters, type);
    }

    private static Intent read(Params parameters, Function<Params, NewAuthenticator> authenticator) {
        String userId = parameters.requiredString("userId");
        List<NewAuthenticator> list = parameters.requiredObjects("authenticators", authenticator);
        if (list.isEmpty()) {
            throw ApiException.badField(parameters.pathOf("authenticators"), "must hold at least one authenticator");
        }
        return new Intent(userId, list);
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        if (users.find(context.tx(), context.organizationId(), intent.userId()).isEmpty()) {
            throw ApiException.notFound("no user found with id " + intent.userId());
        }
        return new Result(credentials.addAuthenticators(
                context.tx(),
                context.organizationId(),
                intent.userId(),
                intent.authenticators(),
                context.now(),
                context.ids()));
    }

    /** {@code createAuthenticatorsResult}. */
    public record Result(List<String> authenticatorIds) {}
}
