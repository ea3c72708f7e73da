package dev.keyhaven.server.wallet;

import dev.keyhaven.crypto.address.Addresses;
import dev.keyhaven.crypto.hd.DerivationPath;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.JsonAnswer;
import dev.keyhaven.server.api.Pagination;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.state.StateReads;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.tx.Tx;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import tools.jackson.databind.ObjectMapper;

/** The read side of wallets: list_wallets, get_wallet, get_wallet_account, list_wallet_accounts. */
public final class WalletQueries {
    private final Transactor transactor;
    private final WalletRepository wallets;
    private final ObjectMapper json;

    public WalletQueries(Transactor transactor, WalletRepository wallets, ObjectMapper json) {
        this.transactor = transactor;
        this.wallets = wallets;
        this.json = json;
    }

    /** {@code list_wallets {organizationId}} → {@code {wallets}}, oldest first. */
    public Map<String, Object> listWallets(Caller caller, Params body) {
        return Map.of("wallets", transactor.read(tx -> wallets(tx, caller.organizationId())));
    }

    /** The organization's wallets in wire form, oldest first, read within {@code tx}. */
    public List<WalletViews.WireWallet> wallets(Tx tx, String organizationId) {
        return wallets.list(tx, organizationId).stream()
                .map(WalletViews::wallet)
                .toList();
    }

    /** {@code get_wallet {organizationId, walletId}} → {@code {wallet}}. */
    public Map<String, Object> getWallet(Caller caller, Params body) {
        String walletId = body.requiredString("walletId");
        return Map.of("wallet", WalletViews.wallet(transactor.read(tx -> requireWallet(tx, caller, walletId))));
    }

    /** {@code get_wallet_account {organizationId, walletId, address? | path?}} → {@code {account}}. */
    public Map<String, Object> getWalletAccount(Caller caller, Params body) {
        String walletId = body.requiredString("walletId");
        Optional<String> address = body.optionalString("address");
        Optional<String> path = body.optionalString("path");
        if (address.isEmpty() && path.isEmpty()) {
            throw ApiException.badField(body.pathOf("address"), "or path is required");
        }
        Optional<String> canonicalPath = path.map(p -> canonical(p, body.pathOf("path")));
        WalletAccount account = transactor.read(tx -> {
            requireWallet(tx, caller, walletId);
            Optional<WalletAccount> found = address.isPresent()
                    ? wallets.findAccountByAddress(tx, caller.organizationId(), Addresses.lookupKey(address.get()))
                            .filter(a -> a.walletId().equals(walletId))
                    : wallets.findAccountByPath(tx, caller.organizationId(), walletId, canonicalPath.get());
            return found.orElseThrow(() -> ApiException.notFound("no wallet account found in wallet " + walletId
                    + " with " + (address.isPresent() ? "address " + address.get() : "path " + path.get())));
        });
        return Map.of("account", WalletViews.account(account, Optional.empty()));
    }

    /**
     * {@code list_wallet_accounts {organizationId, walletId?, includeWalletDetails?, paginationOptions?}} →
     * {@code {accounts}} in creation order (ids are time-ordered), a page at a time. The serialised page is
     * remembered with the organization's state version, which every change of its wallets advances.
     */
    public JsonAnswer listWalletAccounts(Caller caller, Params body, StateReads state) {
        Optional<String> walletId = body.optionalString("walletId");
        boolean details = body.optionalBoolean("includeWalletDetails", false);
        Pagination page = Pagination.read(body);
        String org = caller.organizationId();
        return new JsonAnswer(state.answer(new AccountsPage(walletId, details, page), tx -> {
            walletId.ifPresent(id -> requireWallet(tx, caller, id));
            checkCursor(tx, org, page.before(), "paginationOptions.before");
            checkCursor(tx, org, page.after(), "paginationOptions.after");
            List<WalletAccount> rows = wallets.pageOfAccounts(tx, org, walletId, page);
            Map<String, Wallet> walletsById = !details || rows.isEmpty()
                    ? Map.of()
                    : wallets
                            .findAll(
                                    tx,
                                    org,
                                    rows.stream()
                                            .map(WalletAccount::walletId)
                                            .distinct()
                                            .toList())
                            .stream()
                            .collect(Collectors.toMap(Wallet::id, Function.identity()));
            List<WalletViews.WireWalletAccount> accounts = rows.stream()
                    .map(a -> WalletViews.account(a, Optional.ofNullable(walletsById.get(a.walletId()))))
                    .toList();
            return json.writeValueAsBytes(Map.of("accounts", accounts));
        }));
    }

    /** The lookup of one page of accounts, as a remembered answer's key. */
    private record AccountsPage(Optional<String> walletId, boolean includeWalletDetails, Pagination page) {}

    private void checkCursor(Tx tx, String organizationId, Optional<String> cursor, String field) {
        if (cursor.isPresent()
                && wallets.findAccounts(tx, organizationId, List.of(cursor.get()))
                        .isEmpty()) {
            throw ApiException.badField(field, "names no wallet account of this organization");
        }
    }

    private Wallet requireWallet(Tx tx, Caller caller, String walletId) {
        return wallets.find(tx, caller.organizationId(), walletId)
                .orElseThrow(() -> ApiException.notFound("no wallet found with id " + walletId));
    }

    private static String canonical(String path, String field) {
        try {
            return DerivationPath.parse(path).toString();
        } catch (IllegalArgumentException e) {
            throw ApiException.badField(field, "is not a valid BIP-32 path: " + e.getMessage());
        }
    }
}
