package dev.keyhaven.server.keyimport;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.Params;

/**
 * {@code init_import_wallet} and {@code init_import_private_key}: a signed target bundle
 * ({@code {"organizationId","userId","targetPublic"}}) that {@code @turnkey/crypto}'s {@code encryptWalletToBundle}
 * / {@code encryptPrivateKeyToBundle} check and encrypt to.
 */
final class InitImportHandler implements ActivityHandler<String> {
    private final ImportTargets targets;
    private final ImportKind kind;
    private final ActivitySpec spec;

    public InitImportHandler(ImportTargets targets, ImportKind kind) {
        this.targets = targets;
        this.kind = kind;
        this.spec = switch (kind) {
            case WALLET ->
                ActivitySpec.of(
                        "init_import_wallet",
                        ActivityResource.WALLET,
                        ActivityAction.IMPORT,
                        new ActivityVersion(
                                ActivityType.INIT_IMPORT_WALLET, "initImportWalletIntent", "initImportWalletResult"));
            case PRIVATE_KEY ->
                ActivitySpec.of(
                        "init_import_private_key",
                        ActivityResource.PRIVATE_KEY,
                        ActivityAction.IMPORT,
                        new ActivityVersion(
                                ActivityType.INIT_IMPORT_PRIVATE_KEY,
                                "initImportPrivateKeyIntent",
                                "initImportPrivateKeyResult"));
        };
    }

    @Override
    public ActivitySpec spec() {
        return spec;
    }

    @Override
    public String parse(Params p) {
        return p.requiredString("userId");
    }

    @Override
    public Object execute(ActivityContext context, String userId) {
        return new Result(targets.issue(context, userId, kind));
    }

    /** {@code initImportWalletResult}, {@code initImportPrivateKeyResult}. */
    public record Result(String importBundle) {}
}
