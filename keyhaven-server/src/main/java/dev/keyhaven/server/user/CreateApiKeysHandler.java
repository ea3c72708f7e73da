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

/** {@code create_api_keys}: adds API keys to a user. Users may always add keys to themselves. */
final class CreateApiKeysHandler implements OwnCredentialsHandler<CreateApiKeysHandler.Intent> {
    /** V1 ({@code @turnkey/http} ≤ 2.10, sdk-server ≤ 1.0) sends keys without a curve: P-256. */
    static final VersionTable<Intent> VERSIONS = VersionTable.of(
            version(
                    ActivityType.CREATE_API_KEYS_V2,
                    "createApiKeysIntentV2",
                    "createApiKeysResult",
                    p -> read(p, NewApiKey::read)),
            version(
                    ActivityType.CREATE_API_KEYS,
                    "createApiKeysIntent",
                    "createApiKeysResult",
                    p -> read(p, NewApiKey::readP256)));

    private static final ActivitySpec SPEC =
            ActivitySpec.of("create_api_keys", ActivityResource.CREDENTIAL, ActivityAction.CREATE, VERSIONS);

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
        return parse(parameters, ActivityType.CREATE_API_KEYS_V2);
    }

    @Override
    public Intent parse(Params parameters, ActivityType type) {
        return VERSIONS.read(parameters, type);
    }

    private static Intent read(Params parameters, Function<Params, NewApiKey> key) {
        String userId = parameters.requiredString("userId");
        List<NewApiKey> keys = parameters.requiredObjects("apiKeys", key);
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
