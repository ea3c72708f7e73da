package dev.keyhaven.server.privatekey;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code delete_private_keys}: deletes keys, all or none. A key that was never exported is lost for good, so that
 * needs {@code deleteWithoutExport: true}.
 */
final class DeletePrivateKeysHandler implements ActivityHandler<DeletePrivateKeysHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "delete_private_keys",
            ActivityResource.PRIVATE_KEY,
            ActivityAction.DELETE,
            new ActivityVersion(
                    ActivityType.DELETE_PRIVATE_KEYS, "deletePrivateKeysIntent", "deletePrivateKeysResult"));

    private final PrivateKeyRepository keys;

    public DeletePrivateKeysHandler(PrivateKeyRepository keys) {
        this.keys = keys;
    }

    /** The validated parameters. */
    public record Intent(List<String> privateKeyIds, boolean deleteWithoutExport) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        return new Intent(
                p.requiredIds("privateKeyIds", "private key"), p.optionalBoolean("deleteWithoutExport", false));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        String org = context.organizationId();
        List<String> missing = keys.missing(context.tx(), org, intent.privateKeyIds());
        ApiException.requireNoneMissing("private key", missing);
        if (!intent.deleteWithoutExport()) {
            List<String> notExported = new ArrayList<>();
            for (String id : intent.privateKeyIds()) {
                if (!keys.find(context.tx(), org, id).orElseThrow().exported()) {
                    notExported.add(id);
                }
            }
            ApiException.requireExported("private key", notExported);
        }
        intent.privateKeyIds().forEach(id -> keys.delete(context.tx(), org, id));
        return new Result(intent.privateKeyIds());
    }

    /** {@code deletePrivateKeysResult}. */
    public record Result(List<String> privateKeyIds) {}
}
