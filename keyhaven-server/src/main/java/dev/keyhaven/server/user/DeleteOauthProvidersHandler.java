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
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.state.StateReads;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@code delete_oauth_providers}: removes OAuth providers of one user. Users may always remove their own. */
public final class DeleteOauthProvidersHandler implements ActivityHandler<DeleteOauthProvidersHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of("delete_oauth_providers", ActivityResource.CREDENTIAL,
            ActivityAction.DELETE, new ActivityVersion(ActivityType.DELETE_OAUTH_PROVIDERS,
                    "deleteOauthProvidersIntent", "deleteOauthProvidersResult"));

    private final OauthProviders providers;

    public DeleteOauthProvidersHandler(OauthProviders providers) {
        this.providers = providers;
    }

    /** The validated parameters. */
    public record Intent(String userId, List<String> providerIds) {
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params parameters) {
        return new Intent(parameters.requiredString("userId"), parameters.requiredIds("providerIds",
                "OAuth provider"));
    }

    @Override
    public Optional<String> credentialOwner(Intent intent) {
        return Optional.of(intent.userId());
    }

    /** {@code activity.params.user_id}. */
    @Override
    public PolicyFacts policyFacts(StateReads organization, Intent intent) {
        return PolicyFacts.params(Map.of("user_id", Value.of(intent.userId())));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        providers.delete(context.tx(), context.organizationId(), intent.userId(), intent.providerIds());
        return new Result(intent.providerIds());
    }

    /** {@code deleteOauthProvidersResult}. */
    public record Result(List<String> providerIds) {
    }
}
