package dev.keyhaven.server.wallet;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.custody.WalletSeed;
import java.util.List;

/**
 * {@code create_wallet_accounts}: derives more accounts of an existing wallet. With {@code persist: false} the
 * addresses are derived and returned but not stored.
 */
final class CreateWalletAccountsHandler implements ActivityHandler<CreateWalletAccountsHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "create_wallet_accounts",
            ActivityResource.WALLET,
            ActivityAction.CREATE,
            new ActivityVersion(
                    ActivityType.CREATE_WALLET_ACCOUNTS, "createWalletAccountsIntent", "createWalletAccountsResult"));

    private final WalletRepository wallets;
    private final AccountCreator accounts;
    private final Custody custody;

    public CreateWalletAccountsHandler(WalletRepository wallets, AccountCreator accounts, Custody custody) {
        this.wallets = wallets;
        this.accounts = accounts;
        this.custody = custody;
    }

    /** The validated parameters. */
    public record Intent(String walletId, List<AccountParams> accounts, boolean persist) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        String walletId = p.requiredString("walletId");
        List<AccountParams> list = p.requiredObjects("accounts", AccountParams::read);
        if (list.isEmpty()) {
            throw ApiException.badField(p.pathOf("accounts"), "must name at least one account");
        }
        return new Intent(walletId, list, p.optionalBoolean("persist", true));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        String org = context.organizationId();
        if (wallets.find(context.tx(), org, intent.walletId()).isEmpty()) {
            throw ApiException.notFound("no wallet found with id " + intent.walletId());
        }
        try (WalletSeed seed = custody.openWallet(
                context.tx(), org, intent.walletId(), wallets.sealedMnemonic(context.tx(), org, intent.walletId()))) {
            return new Result(accounts.create(
                    context.tx(),
                    org,
                    intent.walletId(),
                    seed,
                    intent.accounts(),
                    intent.persist(),
                    context.now(),
                    context.ids(),
                    context.addresses()));
        }
    }

    /** {@code createWalletAccountsResult}. */
    public record Result(List<String> addresses) {}
}
