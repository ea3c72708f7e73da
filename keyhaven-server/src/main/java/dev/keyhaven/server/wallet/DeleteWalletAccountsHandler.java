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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@code delete_wallet_accounts}: deletes accounts, all or none. An account whose key was never exported (itself
 * or with its whole wallet) needs {@code deleteWithoutExport: true}.
 */
final class DeleteWalletAccountsHandler implements ActivityHandler<DeleteWalletAccountsHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "delete_wallet_accounts",
            ActivityResource.WALLET,
            ActivityAction.DELETE,
            new ActivityVersion(
                    ActivityType.DELETE_WALLET_ACCOUNTS, "deleteWalletAccountsIntent", "deleteWalletAccountsResult"));

    private final WalletRepository wallets;

    public DeleteWalletAccountsHandler(WalletRepository wallets) {
        this.wallets = wallets;
    }

    /** The validated parameters. */
    public record Intent(List<String> walletAccountIds, boolean deleteWithoutExport) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        return new Intent(
                p.requiredIds("walletAccountIds", "wallet account"), p.optionalBoolean("deleteWithoutExport", false));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        String org = context.organizationId();
        List<WalletAccount> found = wallets.findAccounts(context.tx(), org, intent.walletAccountIds());
        Set<String> foundIds = found.stream().map(WalletAccount::id).collect(Collectors.toSet());
        List<String> missing = intent.walletAccountIds().stream()
                .filter(id -> !foundIds.contains(id))
                .toList();
        ApiException.requireNoneMissing("wallet account", missing);
        if (!intent.deleteWithoutExport()) {
            Map<String, Wallet> walletsById = wallets
                    .findAll(
                            context.tx(),
                            org,
                            found.stream()
                                    .map(WalletAccount::walletId)
                                    .distinct()
                                    .toList())
                    .stream()
                    .collect(Collectors.toMap(Wallet::id, Function.identity()));
            List<String> notExported = found.stream()
                    .filter(a -> !a.exported() && !walletsById.get(a.walletId()).exported())
                    .map(WalletAccount::id)
                    .toList();
            ApiException.requireExported("wallet account", notExported);
        }
        intent.walletAccountIds().forEach(id -> wallets.deleteAccount(context.tx(), org, id));
        return new Result(intent.walletAccountIds());
    }

    /** {@code deleteWalletAccountsResult}. */
    public record Result(List<String> walletAccountIds) {}
}
