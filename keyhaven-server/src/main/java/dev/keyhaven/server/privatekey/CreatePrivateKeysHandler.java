package dev.keyhaven.server.privatekey;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.activity.CreatedAddress;
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
 * {@code create_private_keys} (V2): generates standalone keys, each with its addresses and tags. Every key is
 * created or none is.
 */
final class CreatePrivateKeysHandler implements ActivityHandler<List<PrivateKeyParams>> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "create_private_keys",
            ActivityResource.PRIVATE_KEY,
            ActivityAction.CREATE,
            new ActivityVersion(
                    ActivityType.CREATE_PRIVATE_KEYS_V2, "createPrivateKeysIntentV2", "createPrivateKeysResultV2"));

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
            DerivedKey key = custody.createPrivateKey(org, id, params.curve());
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
    public record Result(List<Created> privateKeys) {}

    /** {@code v1PrivateKeyResult}. */
    public record Created(String privateKeyId, List<WireAddress> addresses) {}
}
