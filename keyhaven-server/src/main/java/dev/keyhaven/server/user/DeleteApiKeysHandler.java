package dev.keyhaven.server.user;

import dev.keyhaven.policy.Value;
import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.activity.PolicyFacts;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.state.StateReads;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@code delete_api_keys}: removes API keys of one user. Users may always remove their own keys. */
final class DeleteApiKeysHandler implements OwnCredentialsHandler<DeleteApiKeysHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "delete_api_keys",
            ActivityResource.CREDENTIAL,
            ActivityAction.DELETE,
            new ActivityVersion(ActivityType.DELETE_API_KEYS, "deleteApiKeysIntent", "deleteApiKeysResult"));

    private final UserRepository users;

    public DeleteApiKeysHandler(UserRepository users) {
        this.users = users;
    }

    /** The validated parameters. */
    public record Intent(String userId, List<String> apiKeyIds) implements OwnCredentialsHandler.OfUser {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params parameters) {
        String userId = parameters.requiredString("userId");
        return new Intent(userId, parameters.requiredIds("apiKeyIds", "API key"));
    }

    /** {@code activity.params.user_id} and {@code api_key_ids}. */
    @Override
    public PolicyFacts policyFacts(StateReads organization, Intent intent) {
        return PolicyFacts.params(
                Map.of("user_id", Value.of(intent.userId()), "api_key_ids", Value.strings(intent.apiKeyIds())));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        String org = context.organizationId();
        if (users.find(context.tx(), org, intent.userId()).isEmpty()) {
            throw ApiException.notFound("no user found with id " + intent.userId());
        }
        for (String id : intent.apiKeyIds()) {
            Optional<ApiKey> key = users.findApiKey(context.tx(), org, id);
            if (key.isEmpty() || !key.get().userId().equals(intent.userId())) {
                throw ApiException.notFound("no api key found with id " + id + " for user " + intent.userId());
            }
            users.deleteApiKey(context.tx(), org, id);
        }
        return new Result(intent.apiKeyIds());
    }

    /** {@code deleteApiKeysResult}. */
    public record Result(List<String> apiKeyIds) {}
}
