package dev.keyhaven.server.privatekey;

import static dev.keyhaven.server.activity.VersionTable.version;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.VersionTable;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import java.util.List;

/**
 * {@code create_private_keys} (V2, V1): generates standalone keys, each with its addresses and tags. Every key is
 * created or none is.
 */
final class CreatePrivateKeysHandler implements ActivityHandler<List<PrivateKeyParams>> {
    /**
     * Both versions take the same keys; V1 (sent by {@code @turnkey/http} before 0.18.1) is answered with the bare
     * ids of {@code createPrivateKeysResult}.
     */
    static final VersionTable<List<PrivateKeyParams>> VERSIONS = VersionTable.of(
            version(
                    ActivityType.CREATE_PRIVATE_KEYS_V2,
                    "createPrivateKeysIntentV2",
                    "createPrivateKeysResultV2",
                    CreatePrivateKeysHandler::read),
            version(
                    ActivityType.CREATE_PRIVATE_KEYS,
                    "createPrivateKeysIntent",
                    "createPrivateKeysResult",
                    result -> ((Result) result).v1(),
                    CreatePrivateKeysHandler::read));

    private static final ActivitySpec SPEC =
            ActivitySpec.of("create_private_keys", ActivityResource.PRIVATE_KEY, ActivityAction.CREATE, VERSIONS);

    private final PrivateKeyGenerator generator;

    public CreatePrivateKeysHandler(PrivateKeyGenerator generator) {
        this.generator = generator;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public List<PrivateKeyParams> parse(Params p) {
        return parse(p, ActivityType.CREATE_PRIVATE_KEYS_V2);
    }

    @Override
    public List<PrivateKeyParams> parse(Params p, ActivityType type) {
        return VERSIONS.read(p, type);
    }

    private static List<PrivateKeyParams> read(Params p) {
        List<PrivateKeyParams> list = p.requiredObjects("privateKeys", PrivateKeyParams::read);
        if (list.isEmpty()) {
            throw ApiException.badField(p.pathOf("privateKeys"), "must name at least one private key");
        }
        return list;
    }

    @Override
    public Object execute(ActivityContext context, List<PrivateKeyParams> intent) {
        return new Result(generator.generate(
                context.tx(), context.organizationId(), intent, context.now(), context.ids(), context.addresses()));
    }

    /** {@code createPrivateKeysResultV2}. */
    public record Result(List<PrivateKeyGenerator.Created> privateKeys) {

        /** {@code createPrivateKeysResult}, V1's shape. */
        ResultV1 v1() {
            return new ResultV1(privateKeys.stream()
                    .map(PrivateKeyGenerator.Created::privateKeyId)
                    .toList());
        }
    }

    /** {@code createPrivateKeysResult}. */
    public record ResultV1(List<String> privateKeyIds) {}
}
