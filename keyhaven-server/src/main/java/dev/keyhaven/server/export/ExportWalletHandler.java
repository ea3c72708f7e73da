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
import dev.keyhaven.server.custody.KeyTransfer;
import dev.keyhaven.server.wallet.WalletRepository;

/** {@code export_wallet}: the wallet's mnemonic, encrypted to the target key; marks the wallet exported. */
public final class ExportWalletHandler implements ActivityHandler<ExportTarget> {
    private static final ActivitySpec SPEC = ActivitySpec.of("export_wallet", ActivityResource.WALLET,
            ActivityAction.EXPORT,
            new ActivityVersion(ActivityType.EXPORT_WALLET, "exportWalletIntent", "exportWalletResult"));
    private static final String ENGLISH = "MNEMONIC_LANGUAGE_ENGLISH";

    private final WalletRepository wallets;
    private final KeyTransfer transfer;

    public ExportWalletHandler(WalletRepository wallets, KeyTransfer transfer) {
        this.wallets = wallets;
        this.transfer = transfer;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public ExportTarget parse(Params p) {
        if (!p.optionalString("language").orElse(ENGLISH).equals(ENGLISH)) {
            throw ApiException.badField(p.pathOf("language"), "only " + ENGLISH + " is supported");
        }
        return ExportTarget.read(p, "walletId");
    }

    @Override
    public Object execute(ActivityContext context, ExportTarget intent) {
        String org = context.organizationId();
        String walletId = intent.resource();
        wallets.find(context.tx(), org, walletId)
                .orElseThrow(() -> ApiException.notFound("no wallet found with id " + walletId));
        String bundle = transfer.exportMnemonic(org, walletId, wallets.sealedMnemonic(context.tx(), org, walletId),
                intent.targetPublicKey());
        wallets.markExported(context.tx(), org, walletId, context.now());
        return new Result(walletId, bundle);
    }

    /** {@code exportWalletResult}. */
    public record Result(String walletId, String exportBundle) {
    }
}
