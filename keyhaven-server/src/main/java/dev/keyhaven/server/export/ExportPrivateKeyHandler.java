package dev.keyhaven.server.export;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.custody.KeyHandle;
import dev.keyhaven.server.custody.KeyTransfer;
import dev.keyhaven.server.custody.SealPurpose;
import dev.keyhaven.server.privatekey.PrivateKey;
import dev.keyhaven.server.privatekey.PrivateKeyRepository;

/** {@code export_private_key}: the raw private key, encrypted to the target key; marks the key exported. */
public final class ExportPrivateKeyHandler implements ActivityHandler<ExportTarget> {
    private static final ActivitySpec SPEC = ActivitySpec.of("export_private_key", ActivityResource.PRIVATE_KEY,
            ActivityAction.EXPORT, new ActivityVersion(ActivityType.EXPORT_PRIVATE_KEY, "exportPrivateKeyIntent",
                    "exportPrivateKeyResult"));

    private final PrivateKeyRepository keys;
    private final KeyTransfer transfer;

    public ExportPrivateKeyHandler(PrivateKeyRepository keys, KeyTransfer transfer) {
        this.keys = keys;
        this.transfer = transfer;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public ExportTarget parse(Params p) {
        return ExportTarget.read(p, "privateKeyId");
    }

    @Override
    public Object execute(ActivityContext context, ExportTarget intent) {
        String org = context.organizationId();
        String id = intent.resource();
        PrivateKey key = keys.find(context.tx(), org, id)
                .orElseThrow(() -> ApiException.notFound("no private key found with id " + id));
        String bundle = transfer.exportKey(new KeyHandle(key.curve(), SealPurpose.PRIVATE_KEY, org, id,
                keys.sealedKey(context.tx(), org, id)), intent.targetPublicKey());
        keys.markExported(context.tx(), org, id, context.now());
        return new Result(id, bundle);
    }

    /** {@code exportPrivateKeyResult}. */
    public record Result(String privateKeyId, String exportBundle) {
    }
}
