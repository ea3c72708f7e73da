package dev.keyhaven.server.export;

import dev.keyhaven.crypto.address.Addresses;
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
import dev.keyhaven.server.wallet.SealedAccount;
import dev.keyhaven.server.wallet.WalletAccount;
import dev.keyhaven.server.wallet.WalletRepository;

/**
 * {@code export_wallet_account}: the raw private key of the account with this address, encrypted to the target key;
 * marks the account exported.
 */
public final class ExportWalletAccountHandler implements ActivityHandler<ExportTarget> {
    private static final ActivitySpec SPEC = ActivitySpec.of("export_wallet_account", ActivityResource.WALLET,
            ActivityAction.EXPORT, new ActivityVersion(ActivityType.EXPORT_WALLET_ACCOUNT, "exportWalletAccountIntent",
                    "exportWalletAccountResult"));

    private final WalletRepository wallets;
    private final KeyTransfer transfer;

    public ExportWalletAccountHandler(WalletRepository wallets, KeyTransfer transfer) {
        this.wallets = wallets;
        this.transfer = transfer;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public ExportTarget parse(Params p) {
        return ExportTarget.read(p, "address");
    }

    @Override
    public Object execute(ActivityContext context, ExportTarget intent) {
        String org = context.organizationId();
        SealedAccount sealed = wallets.findSealedAccountByAddress(context.tx(), org,
                Addresses.lookupKey(intent.resource())).orElseThrow(() -> ApiException.notFound(
                        "no wallet account of this organization has the address " + intent.resource()));
        WalletAccount account = sealed.account();
        String bundle = transfer.exportKey(new KeyHandle(account.curve(), SealPurpose.WALLET_ACCOUNT_KEY, org,
                account.id(), sealed.sealedKey()), intent.targetPublicKey());
        wallets.markAccountExported(context.tx(), org, account.id(), context.now());
        return new Result(account.address(), bundle);
    }

    /** {@code exportWalletAccountResult}. */
    public record Result(String address, String exportBundle) {
    }
}
