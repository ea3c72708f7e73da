package dev.keyhaven.server.user;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.oidc.OidcVerifier;
import java.util.List;

/**
 * {@code create_oauth_providers} (V2 and V1): registers OAuth providers on a user, each from a verified
 * {@code oidcToken} or from {@code oidcClaims}. Users may always add providers to themselves.
 */
final class CreateOauthProvidersHandler implements OwnCredentialsHandler<CreateOauthProvidersHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "create_oauth_providers",
            ActivityResource.CREDENTIAL,
            ActivityAction.CREATE,
            new ActivityVersion(
                    ActivityType.CREATE_OAUTH_PROVIDERS_V2,
                    "createOauthProvidersIntentV2",
                    "createOauthProvidersResultV2"),
            new ActivityVersion(
                    ActivityType.CREATE_OAUTH_PROVIDERS, "createOauthProvidersIntent", "createOauthProvidersResult"));

    private final UserRepository users;
    private final OauthProviders providers;
    private final OidcVerifier oidc;

    public CreateOauthProvidersHandler(UserRepository users, OauthProviders providers, OidcVerifier oidc) {
        this.users = users;
        this.providers = providers;
        this.oidc = oidc;
    }

    /** The validated parameters. */
    public record Intent(String userId, List<NewOauthProvider> oauthProviders)
            implements OwnCredentialsHandler.OfUser {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params parameters) {
        return parse(parameters, ActivityType.CREATE_OAUTH_PROVIDERS_V2);
    }

    /** The unversioned type's providers ({@code v1OauthProviderParams}) are registered by {@code oidcToken} only. */
    @Override
    public Intent parse(Params parameters, ActivityType type) {
        boolean tokensOnly = type == ActivityType.CREATE_OAUTH_PROVIDERS;
        String userId = parameters.requiredString("userId");
        List<NewOauthProvider> added =
                parameters.requiredObjects("oauthProviders", o -> NewOauthProvider.read(o, oidc, tokensOnly));
        if (added.isEmpty()) {
            throw ApiException.badField(parameters.pathOf("oauthProviders"), "must hold at least one provider");
        }
        return new Intent(userId, added);
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        if (users.find(context.tx(), context.organizationId(), intent.userId()).isEmpty()) {
            throw ApiException.notFound("no user found with id " + intent.userId());
        }
        return new Result(providers.add(
                context.tx(),
                context.organizationId(),
                intent.userId(),
                intent.oauthProviders(),
                context.now(),
                context.ids()));
    }

    /** {@code createOauthProvidersResult(V2)}. */
    public record Result(List<String> providerIds) {}
}
