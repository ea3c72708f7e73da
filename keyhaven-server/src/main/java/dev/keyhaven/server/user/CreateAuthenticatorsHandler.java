package dev.keyhaven.server.user;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import java.util.List;

/**
 * {@code create_authenticators}: registers passkeys for a user after verifying their attestations. Users may always
 * add passkeys to themselves.
 */
final class CreateAuthenticatorsHandler implements OwnCredentialsHandler<CreateAuthenticatorsHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "create_authenticators",
            ActivityResource.CREDENTIAL,
            ActivityAction.CREATE,
            new ActivityVersion(
                    ActivityType.CREATE_AUTHENTICATORS_V2,
                    "createAuthenticatorsIntentV2",
                    "createAuthenticatorsResult"));

    private final UserRepository users;
    private final Credentials credentials;
    private final AttestationVerifier attestations;

    public CreateAuthenticatorsHandler(
            UserRepository users, Credentials credentials, AttestationVerifier attestations) {
        this.users = users;
        this.credentials = credentials;
        this.attestations = attestations;
    }

    /** The validated parameters. */
    public record Intent(String userId, List<NewAuthenticator> authenticators)
            implements OwnCredentialsHandler.OfUser {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params parameters) {
        String userId = parameters.requiredString("userId");
        List<NewAuthenticator> list =
                parameters.requiredObjects("authenticators", a -> NewAuthenticator.read(a, attestations));
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
