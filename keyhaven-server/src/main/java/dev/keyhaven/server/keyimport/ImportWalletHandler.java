package dev.keyhaven.server.keyimport;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.custody.KeyTransfer;
import dev.keyhaven.server.wallet.AccountParams;
import dev.keyhaven.server.wallet.WalletCreator;
import java.util.List;

/**
 * {@code import_wallet}: a wallet from a mnemonic the client encrypted to the user's import target; it derives its
 * accounts like any wallet holding that mnemonic, and is marked {@code imported}.
 */
final class ImportWalletHandler implements ActivityHandler<ImportWalletHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "import_wallet",
            ActivityResource.WALLET,
            ActivityAction.IMPORT,
            new ActivityVersion(ActivityType.IMPORT_WALLET, "importWalletIntent", "importWalletResult"));

    private final ImportTargets targets;
    private final WalletCreator creator;

    public ImportWalletHandler(ImportTargets targets, WalletCreator creator) {
        this.targets = targets;
        this.creator = creator;
    }

    /** The validated parameters. */
    public record Intent(String userId, String walletName, String encryptedBundle, List<AccountParams> accounts) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        return new Intent(
                p.requiredString("userId"),
                p.requiredString("walletName"),
                p.requiredString("encryptedBundle"),
                p.requiredObjects("accounts", AccountParams::read));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        KeyTransfer.TargetHandle target = targets.useUp(context, intent.userId(), ImportKind.WALLET);
        WalletCreator.Created created = creator.create(
                context.tx(),
                context.organizationId(),
                intent.walletName(),
                intent.accounts(),
                true,
                context.now(),
                context.ids(),
                walletId -> targets.transfer().importWallet(context.tx(), target, walletId, intent.encryptedBundle()),
                context.addresses());
        return new Result(created.walletId(), created.addresses());
    }

    /** {@code importWalletResult}. */
    public record Result(String walletId, List<String> addresses) {}
}
