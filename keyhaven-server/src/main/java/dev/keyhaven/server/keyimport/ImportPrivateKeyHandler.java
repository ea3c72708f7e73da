package dev.keyhaven.server.keyimport;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.address.AddressFormat;
import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.KeyVocabulary;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.custody.DerivedKey;
import dev.keyhaven.server.custody.KeyTransfer;
import dev.keyhaven.server.privatekey.PrivateKeyCreator;
import dev.keyhaven.server.privatekey.PrivateKeyCreator.WireAddress;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * {@code import_private_key}: a private key (32 raw bytes) the client encrypted to the user's import target, stored
 * with the addresses asked for and marked {@code imported}.
 */
final class ImportPrivateKeyHandler implements ActivityHandler<ImportPrivateKeyHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "import_private_key",
            ActivityResource.PRIVATE_KEY,
            ActivityAction.IMPORT,
            new ActivityVersion(ActivityType.IMPORT_PRIVATE_KEY, "importPrivateKeyIntent", "importPrivateKeyResult"));

    private final ImportTargets targets;
    private final PrivateKeyCreator creator;

    public ImportPrivateKeyHandler(ImportTargets targets, PrivateKeyCreator creator) {
        this.targets = targets;
        this.creator = creator;
    }

    /** The validated parameters. */
    public record Intent(
            String userId,
            String privateKeyName,
            String encryptedBundle,
            KeyCurve curve,
            List<AddressFormat> addressFormats) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        return new Intent(
                p.requiredString("userId"),
                p.requiredString("privateKeyName"),
                p.requiredString("encryptedBundle"),
                KeyVocabulary.requiredCurve(p, "curve"),
                List.copyOf(new LinkedHashSet<>(KeyVocabulary.requiredAddressFormats(p, "addressFormats"))));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        String org = context.organizationId();
        creator.requireRoomFor(context.tx(), org, 1);
        creator.requireValid(context.tx(), org, "", intent.privateKeyName(), intent.curve(), intent.addressFormats());
        KeyTransfer.TargetHandle target = targets.useUp(context, intent.userId(), ImportKind.PRIVATE_KEY);
        String id = context.ids().next();
        DerivedKey key =
                targets.transfer().importPrivateKey(context.tx(), target, id, intent.curve(), intent.encryptedBundle());
        return new Result(
                id,
                creator.store(
                        context.tx(),
                        org,
                        id,
                        intent.privateKeyName(),
                        intent.curve(),
                        intent.addressFormats(),
                        key,
                        true,
                        context.now()));
    }

    /** {@code importPrivateKeyResult}. */
    public record Result(String privateKeyId, List<WireAddress> addresses) {}
}
