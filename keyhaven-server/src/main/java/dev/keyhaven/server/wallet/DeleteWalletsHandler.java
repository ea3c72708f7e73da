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
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code delete_wallets}: deletes wallets with their accounts, all or none. A wallet that was never exported takes
 * its keys with it, so that needs {@code deleteWithoutExport: true}.
 */
final class DeleteWalletsHandler implements ActivityHandler<DeleteWalletsHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "delete_wallets",
            ActivityResource.WALLET,
            ActivityAction.DELETE,
            new ActivityVersion(ActivityType.DELETE_WALLETS, "deleteWalletsIntent", "deleteWalletsResult"));

    private final WalletRepository wallets;

    public DeleteWalletsHandler(WalletRepository wallets) {
        this.wallets = wallets;
    }

    /** The validated parameters. */
    public record Intent(List<String> walletIds, boolean deleteWithoutExport) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        return new Intent(p.requiredIds("walletIds", "wallet"), p.optionalBoolean("deleteWithoutExport", false));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        String org = context.organizationId();
        List<Wallet> found = wallets.findAll(context.tx(), org, intent.walletIds());
        Set<String> foundIds = found.stream().map(Wallet::id).collect(Collectors.toSet());
        List<String> missing =
                intent.walletIds().stream().filter(id -> !foundIds.contains(id)).toList();
        ApiException.requireNoneMissing("wallet", missing);
        if (!intent.deleteWithoutExport()) {
            List<String> notExported =
                    found.stream().filter(w -> !w.exported()).map(Wallet::id).toList();
            ApiException.requireExported("wallet", notExported);
        }
        intent.walletIds().forEach(id -> wallets.delete(context.tx(), org, id));
        return new Result(intent.walletIds());
    }

    /** {@code deleteWalletsResult}. */
    public record Result(List<String> walletIds) {}
}
