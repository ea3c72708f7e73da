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
import java.util.Optional;

/** {@code delete_authenticators}: removes passkeys of one user. Users may always remove their own. */
final class DeleteAuthenticatorsHandler implements OwnCredentialsHandler<DeleteAuthenticatorsHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "delete_authenticators",
            ActivityResource.CREDENTIAL,
            ActivityAction.DELETE,
            new ActivityVersion(
                    ActivityType.DELETE_AUTHENTICATORS, "deleteAuthenticatorsIntent", "deleteAuthenticatorsResult"));

    private final UserRepository users;

    public DeleteAuthenticatorsHandler(UserRepository users) {
        this.users = users;
    }

    /** The validated parameters. */
    public record Intent(String userId, List<String> authenticatorIds) implements OwnCredentialsHandler.OfUser {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params parameters) {
        String userId = parameters.requiredString("userId");
        return new Intent(userId, parameters.requiredIds("authenticatorIds", "authenticator"));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        String org = context.organizationId();
        for (String id : intent.authenticatorIds()) {
            Optional<Authenticator> found = users.findAuthenticator(context.tx(), org, id);
            if (found.isEmpty() || !found.get().userId().equals(intent.userId())) {
                throw ApiException.notFound("no authenticator found with id " + id + " for user " + intent.userId());
            }
            users.deleteAuthenticator(context.tx(), org, id);
        }
        return new Result(intent.authenticatorIds());
    }

    /** {@code deleteAuthenticatorsResult}. */
    public record Result(List<String> authenticatorIds) {}
}
