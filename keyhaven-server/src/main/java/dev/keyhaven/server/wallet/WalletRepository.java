package dev.keyhaven.server.wallet;

import dev.keyhaven.server.api.Pagination;
import dev.keyhaven.server.custody.SealedSecret;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** Storage of wallets and wallet accounts. */
public interface WalletRepository {

    /** Serialises concurrent wallet creations in one organization until the transaction ends (limit checks). */
    void lockOrganization(Tx tx, String organizationId);

    void insert(Tx tx, Wallet wallet, SealedSecret sealedMnemonic);

    int count(Tx tx, String organizationId);

    Optional<Wallet> find(Tx tx, String organizationId, String walletId);

    Optional<Wallet> findByName(Tx tx, String organizationId, String name);

    /** The organization's wallets, oldest first. */
    List<Wallet> list(Tx tx, String organizationId);

    /** The wallets with these ids (in any order); ids of other organizations are not found. */
    List<Wallet> findAll(Tx tx, String organizationId, Collection<String> walletIds);

    SealedSecret sealedMnemonic(Tx tx, String organizationId, String walletId);

    void rename(Tx tx, String organizationId, String walletId, String name, Instant updatedAt);

    /** Records that the wallet's mnemonic left custody (export_wallet). */
    void markExported(Tx tx, String organizationId, String walletId, Instant updatedAt);

    /** Records that the account's key left custody (export_wallet_account). */
    void markAccountExported(Tx tx, String organizationId, String accountId, Instant updatedAt);

    /** Deletes the wallet and all its accounts. */
    void delete(Tx tx, String organizationId, String walletId);

    void insertAccount(Tx tx, WalletAccount account, SealedSecret sealedKey);

    /** Whether the wallet already has an account for this derivation and format. */
    boolean accountExists(Tx tx, String walletId, String curve, String canonicalPath, String addressFormat);

    /** Whether an account of the organization already carries this name. */
    boolean accountNameTaken(Tx tx, String organizationId, String name);

    List<WalletAccount> findAccounts(Tx tx, String organizationId, Collection<String> accountIds);

    /** The account whose address (compared by its lookup key) this is, if any. */
    Optional<WalletAccount> findAccountByAddress(Tx tx, String organizationId, String addressKey);

    /** The account of a wallet at a path (compared in canonical form), the oldest if there are several formats. */
    Optional<WalletAccount> findAccountByPath(Tx tx, String organizationId, String walletId, String canonicalPath);

    /** The account whose address this is, with its sealed key, in one statement (the signing path). */
    Optional<SealedAccount> findSealedAccountByAddress(Tx tx, String organizationId, String addressKey);

    /**
     * One page of accounts in id order (ids are time-ordered, so this is creation order and total): of one wallet,
     * or of the whole organization when {@code walletId} is empty.
     */
    List<WalletAccount> pageOfAccounts(Tx tx, String organizationId, Optional<String> walletId, Pagination page);

    /** All accounts of a wallet, oldest first. */
    List<WalletAccount> accountsOf(Tx tx, String organizationId, String walletId);

    void deleteAccount(Tx tx, String organizationId, String accountId);
}
