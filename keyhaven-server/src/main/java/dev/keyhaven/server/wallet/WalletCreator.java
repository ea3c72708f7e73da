package dev.keyhaven.server.wallet;

import dev.keyhaven.server.activity.AddressLog;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.custody.WalletSeed;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;

/** Creates a wallet with a fresh mnemonic and its first accounts, within the caller's transaction. */
public final class WalletCreator {
    /** Wallets per organization, as the real service limits them. */
    public static final int MAX_WALLETS_PER_ORGANIZATION = 100;

    private final WalletRepository wallets;
    private final AccountCreator accounts;
    private final Custody custody;

    public WalletCreator(WalletRepository wallets, AccountCreator accounts, Custody custody) {
        this.wallets = wallets;
        this.accounts = accounts;
        this.custody = custody;
    }

    /** The new wallet's id and its accounts' addresses ({@code createWalletResult}, {@code v1WalletResult}). */
    public record Created(String walletId, List<String> addresses) {}

    /** Creates a wallet with a fresh mnemonic and its accounts, reporting each address to {@code log}. */
    public Created create(Tx tx, String organizationId, NewWallet wallet, Instant now, Ids ids, AddressLog log) {
        return create(
                tx,
                organizationId,
                wallet.walletName(),
                wallet.accounts(),
                false,
                now,
                ids,
                walletId -> custody.createWallet(tx, organizationId, walletId, wallet.mnemonicLength()),
                log);
    }

    /**
     * A wallet whose seed {@code seedFor} opens (and seals) for the new wallet's id: a fresh mnemonic, or an imported
     * one ({@code imported} marks the wallet so). Each account's address is reported to {@code log}.
     */
    public Created create(
            Tx tx,
            String organizationId,
            String walletName,
            List<AccountParams> accountParams,
            boolean imported,
            Instant now,
            Ids ids,
            Function<String, WalletSeed> seedFor,
            AddressLog log) {
        wallets.lockOrganization(tx, organizationId);
        if (wallets.count(tx, organizationId) >= MAX_WALLETS_PER_ORGANIZATION) {
            throw new ApiException(
                    ErrorCode.LIMIT_EXCEEDED,
                    "organization has exceeded maximum wallets (" + MAX_WALLETS_PER_ORGANIZATION + ")");
        }
        if (wallets.findByName(tx, organizationId, walletName).isPresent()) {
            throw ApiException.badRequest("a wallet named '" + walletName + "' already exists");
        }
        String walletId = ids.next();
        try (WalletSeed seed = seedFor.apply(walletId)) {
            wallets.insert(
                    tx,
                    new Wallet(walletId, organizationId, walletName, false, imported, now, now),
                    seed.sealedMnemonic());
            return new Created(
                    walletId, accounts.create(tx, organizationId, walletId, seed, accountParams, true, now, ids, log));
        }
    }
}
