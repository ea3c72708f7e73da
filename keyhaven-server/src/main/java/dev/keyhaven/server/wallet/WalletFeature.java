package dev.keyhaven.server.wallet;

import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.tx.Transactor;
import java.util.List;
import tools.jackson.databind.ObjectMapper;

/**
 * Wallets assembled: the activities that create, change and delete wallets and accounts, and the queries that read
 * them. {@link #creator()} also serves sub-organizations and wallet imports.
 */
public final class WalletFeature {
    private final WalletCreator creator;
    private final WalletQueries queries;
    private final List<ActivityHandler<?>> handlers;

    public WalletFeature(Transactor transactor, WalletRepository wallets, Custody custody, ObjectMapper json) {
        AccountCreator accounts = new AccountCreator(wallets);
        this.creator = new WalletCreator(wallets, accounts, custody);
        this.queries = new WalletQueries(transactor, wallets, json);
        this.handlers = List.of(
                new CreateWalletHandler(creator),
                new CreateWalletAccountsHandler(wallets, accounts, custody),
                new UpdateWalletHandler(wallets),
                new DeleteWalletsHandler(wallets),
                new DeleteWalletAccountsHandler(wallets));
    }

    public List<ActivityHandler<?>> handlers() {
        return handlers;
    }

    public WalletCreator creator() {
        return creator;
    }

    public WalletQueries queries() {
        return queries;
    }
}
