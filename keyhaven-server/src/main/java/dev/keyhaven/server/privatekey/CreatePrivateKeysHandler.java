package dev.keyhaven.server.privatekey;

import static dev.keyhaven.server.activity.VersionTable.version;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.CreatedAddress;
import dev.keyhaven.server.activity.VersionTable;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.custody.DerivedKey;
import dev.keyhaven.server.privatekey.PrivateKeyCreator.WireAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

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

    private final PrivateKeyRepository keys;
    private final PrivateKeyTags tags;
    private final Custody custody;
    private final PrivateKeyCreator creator;

    public CreatePrivateKeysHandler(PrivateKeyRepository keys, PrivateKeyTags tags, Custody custody) {
        this.keys = keys;
        this.tags = tags;
        this.custody = custody;
        this.creator = new PrivateKeyCreator(keys);
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
        String org = context.organizationId();
        tags.lockOrganization(context.tx(), org);
        creator.requireRoomFor(context.tx(), org, intent.size());
        Set<String> names = new HashSet<>();
        List<Created> created = new ArrayList<>(intent.size());
        for (int i = 0; i < intent.size(); i++) {
            PrivateKeyParams params = intent.get(i);
            String label = "privateKeys[" + i + "]: ";
            if (!names.add(params.privateKeyName())) {
                throw ApiException.badRequest(
                        label + "a private key named '" + params.privateKeyName() + "' already exists");
            }
            creator.requireValid(
                    context.tx(), org, label, params.privateKeyName(), params.curve(), params.addressFormats());
            tags.requireAll(context.tx(), org, params.privateKeyTags());
            String id = context.ids().next();
            DerivedKey key = custody.createPrivateKey(context.tx(), org, id, params.curve());
            List<WireAddress> addresses = creator.store(
                    context.tx(),
                    org,
                    id,
                    params.privateKeyName(),
                    params.curve(),
                    params.addressFormats(),
                    key,
                    false,
                    context.now());
            params.privateKeyTags().forEach(tagId -> keys.tag(context.tx(), tagId, id));
            addresses.forEach(a -> context.addresses().created(CreatedAddress.ofPrivateKey(org, id, a.address())));
            created.add(new Created(id, addresses));
        }
        return new Result(created);
    }

    /** {@code createPrivateKeysResultV2}. */
    public record Result(List<Created> privateKeys) {

        /** {@code createPrivateKeysResult}, V1's shape. */
        ResultV1 v1() {
            return new ResultV1(privateKeys.stream().map(Created::privateKeyId).toList());
        }
    }

    /** {@code createPrivateKeysResult}. */
    public record ResultV1(List<String> privateKeyIds) {}

    /** {@code v1PrivateKeyResult}. */
    public record Created(String privateKeyId, List<WireAddress> addresses) {}
}
