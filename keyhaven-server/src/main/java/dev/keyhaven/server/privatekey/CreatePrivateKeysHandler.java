package dev.keyhaven.server.privatekey;

import dev.keyhaven.crypto.address.AddressFormat;
import dev.keyhaven.crypto.address.Addresses;
import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.CreatedAddress;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.custody.DerivedKey;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * {@code create_private_keys} (V2): generates standalone keys, each with its addresses and tags. Every key is
 * created or none is.
 */
public final class CreatePrivateKeysHandler implements ActivityHandler<List<PrivateKeyParams>> {
    /** Private keys per organization, as the real service limits them. */
    public static final int MAX_PRIVATE_KEYS_PER_ORGANIZATION = 1000;

    private static final ActivitySpec SPEC = ActivitySpec.of("create_private_keys", ActivityResource.PRIVATE_KEY,
            ActivityAction.CREATE,
            new ActivityVersion(ActivityType.CREATE_PRIVATE_KEYS_V2, "createPrivateKeysIntentV2",
                    "createPrivateKeysResultV2"));

    private final PrivateKeyRepository keys;
    private final PrivateKeyTags tags;
    private final Custody custody;

    public CreatePrivateKeysHandler(PrivateKeyRepository keys, PrivateKeyTags tags, Custody custody) {
        this.keys = keys;
        this.tags = tags;
        this.custody = custody;
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
        if (keys.count(context.tx(), org) + intent.size() > MAX_PRIVATE_KEYS_PER_ORGANIZATION) {
            throw new ApiException(ErrorCode.LIMIT_EXCEEDED, "organization has exceeded maximum private keys ("
                    + MAX_PRIVATE_KEYS_PER_ORGANIZATION + ")");
        }
        Set<String> names = new HashSet<>();
        List<Created> created = new ArrayList<>(intent.size());
        for (int i = 0; i < intent.size(); i++) {
            PrivateKeyParams params = intent.get(i);
            String label = "privateKeys[" + i + "]";
            if (!names.add(params.privateKeyName()) || keys.nameTaken(context.tx(), org, params.privateKeyName())) {
                throw ApiException.badRequest(label + ": a private key named '" + params.privateKeyName()
                        + "' already exists");
            }
            for (AddressFormat format : params.addressFormats()) {
                if (!format.supports(params.curve())) {
                    throw ApiException.badRequest(label + ": address format " + format.wireName()
                            + " does not support curve " + params.curve().wireName());
                }
            }
            tags.requireAll(context.tx(), org, params.privateKeyTags());
            String id = context.ids().next();
            DerivedKey key = custody.createPrivateKey(org, id, params.curve());
            List<PrivateKeyAddress> addresses = params.addressFormats().stream()
                    .map(f -> new PrivateKeyAddress(f, Addresses.encode(f, params.curve(), key.publicKey()))).toList();
            keys.insert(context.tx(), new PrivateKey(id, org, params.privateKeyName(), params.curve(),
                    HexFormat.of().formatHex(PrivateKeyPublicKeys.reported(params.curve(), key.publicKey())),
                    addresses, false, false, context.now(), context.now()), key.sealedKey());
            params.privateKeyTags().forEach(tagId -> keys.tag(context.tx(), tagId, id));
            addresses.forEach(a -> context.addresses().created(CreatedAddress.ofPrivateKey(org, id, a.address())));
            created.add(new Created(id, addresses.stream()
                    .map(a -> new WireAddress(a.format().wireName(), a.address())).toList()));
        }
        return new Result(created);
    }

    /** {@code createPrivateKeysResultV2}. */
    public record Result(List<Created> privateKeys) {
    }

    /** {@code v1PrivateKeyResult}. */
    public record Created(String privateKeyId, List<WireAddress> addresses) {
    }

    /** {@code immutableactivityv1Address}. */
    public record WireAddress(String format, String address) {
    }
}
