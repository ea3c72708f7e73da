package dev.keyhaven.server.user;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.Params;
import java.util.List;

/** {@code delete_oauth_providers}: removes OAuth providers of one user. Users may always remove their own. */
final class DeleteOauthProvidersHandler implements OwnCredentialsHandler<DeleteOauthProvidersHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "delete_oauth_providers",
            ActivityResource.CREDENTIAL,
            ActivityAction.DELETE,
            new ActivityVersion(
                    ActivityType.DELETE_OAUTH_PROVIDERS, "deleteOauthProvidersIntent", "deleteOauthProvidersResult"));

    private final OauthProviders providers;

    public DeleteOauthProvidersHandler(OauthProviders providers) {
        this.providers = providers;
    }

    /** The validated parameters. */
    public record Intent(String userId, List<String> providerIds) implements OwnCredentialsHandler.OfUser {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params parameters) {
        return new Intent(parameters.requiredString("userId"), parameters.requiredIds("providerIds", "OAuth provider"));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        providers.delete(context.tx(), context.organizationId(), intent.userId(), intent.providerIds());
        return new Result(intent.providerIds());
    }

    /** {@code deleteOauthProvidersResult}. */
    public record Result(List<String> providerIds) {}
}
