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

/** {@code create_api_keys}: adds API keys to a user. Users may always add keys to themselves. */
final class CreateApiKeysHandler implements OwnCredentialsHandler<CreateApiKeysHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "create_api_keys",
            ActivityResource.CREDENTIAL,
            ActivityAction.CREATE,
            new ActivityVersion(ActivityType.CREATE_API_KEYS_V2, "createApiKeysIntentV2", "createApiKeysResult"));

    private final UserRepository users;
    private final Credentials credentials;

    public CreateApiKeysHandler(UserRepository users, Credentials credentials) {
        this.users = users;
        this.credentials = credentials;
    }

    /** The validated parameters. */
    public record Intent(String userId, List<NewApiKey> apiKeys) implements OwnCredentialsHandler.OfUser {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params parameters) {
        String userId = parameters.requiredString("userId");
        List<NewApiKey> keys = parameters.requiredObjects("apiKeys", NewApiKey::read);
        if (keys.isEmpty()) {
            throw ApiException.badField(parameters.pathOf("apiKeys"), "must hold at least one key");
        }
        return new Intent(userId, keys);
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        if (users.find(context.tx(), context.organizationId(), intent.userId()).isEmpty()) {
            throw ApiException.notFound("no user found with id " + intent.userId());
        }
        return new Result(credentials.addApiKeys(
                context.tx(),
                context.organizationId(),
                intent.userId(),
                intent.apiKeys(),
                context.now(),
                context.ids()));
    }

    /** {@code createApiKeysResult}. */
    public record Result(List<String> apiKeyIds) {}
}
