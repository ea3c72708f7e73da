package dev.keyhaven.server.store;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.address.AddressFormat;
import dev.keyhaven.crypto.address.Addresses;
import dev.keyhaven.server.api.Pagination;
import dev.keyhaven.server.custody.SealedSecret;
import dev.keyhaven.server.tx.Tx;
import dev.keyhaven.server.wallet.SealedAccount;
import dev.keyhaven.server.wallet.Wallet;
import dev.keyhaven.server.wallet.WalletAccount;
import dev.keyhaven.server.wallet.WalletRepository;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/** Wallets and wallet accounts. */
public final class JdbcWalletRepository implements WalletRepository {
    private static final String WALLET_COLUMNS =
            "id, organization_id, name, exported, imported, created_at, " + "updated_at";
    private static final String ACCOUNT_COLUMNS = "id, organization_id, wallet_id, curve, path, canonical_path, "
            + "address_format, address, public_key, name, exported, created_at, updated_at";

    @Override
    public void lockOrganization(Tx tx, String organizationId) {
        Sql.lockOrganization(tx, organizationId);
    }

    @Override
    public void insert(Tx tx, Wallet w, SealedSecret sealedMnemonic) {
        Sql.update(
                tx,
                "INSERT INTO wallets (" + WALLET_COLUMNS + ", mnemonic_sealed) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                w.id(),
                w.organizationId(),
                w.name(),
                w.exported(),
                w.imported(),
                w.createdAt(),
                w.updatedAt(),
                sealedMnemonic.base64());
    }

    @Override
    public int count(Tx tx, String organizationId) {
        return (int) Sql.count(tx, "SELECT COUNT(*) FROM wallets WHERE organization_id = ?", organizationId);
    }

    @Override
    public Optional<Wallet> find(Tx tx, String organizationId, String walletId) {
        return Sql.one(
                tx,
                "SELECT " + WALLET_COLUMNS + " FROM wallets WHERE organization_id = ? AND id = ?",
                JdbcWalletRepository::wallet,
                organizationId,
                walletId);
    }

    @Override
    public Optional<Wallet> findByName(Tx tx, String organizationId, String name) {
        return Sql.one(
                tx,
                "SELECT " + WALLET_COLUMNS + " FROM wallets WHERE organization_id = ? AND name = ?",
                JdbcWalletRepository::wallet,
                organizationId,
                name);
    }

    @Override
    public List<Wallet> list(Tx tx, String organizationId) {
        return Sql.list(
                tx,
                "SELECT " + WALLET_COLUMNS + " FROM wallets WHERE organization_id = ? ORDER BY id",
                JdbcWalletRepository::wallet,
                organizationId);
    }

    @Override
    public List<Wallet> findAll(Tx tx, String organizationId, Collection<String> ids) {
        Collection<String> walletIds = new LinkedHashSet<>(ids);
        if (walletIds.isEmpty()) {
            return List.of();
        }
        return Sql.list(
                tx,
                "SELECT " + WALLET_COLUMNS + " FROM wallets WHERE organization_id = ? AND id IN ("
                        + Sql.placeholders(walletIds.size()) + ")",
                JdbcWalletRepository::wallet,
                withOrganization(organizationId, walletIds));
    }

    @Override
    public SealedSecret sealedMnemonic(Tx tx, String organizationId, String walletId) {
        return Sql.one(
                        tx,
                        "SELECT mnemonic_sealed FROM wallets WHERE organization_id = ? AND id = ?",
                        rs -> new SealedSecret(rs.getString(1)),
                        organizationId,
                        walletId)
                .orElseThrow();
    }

    @Override
    public void rename(Tx tx, String organizationId, String walletId, String name, Instant updatedAt) {
        Sql.update(
                tx,
                "UPDATE wallets SET name = ?, updated_at = ? WHERE organization_id = ? AND id = ?",
                name,
                updatedAt,
                organizationId,
                walletId);
    }

    @Override
    public void markExported(Tx tx, String organizationId, String walletId, Instant updatedAt) {
        Sql.update(
                tx,
                "UPDATE wallets SET exported = ?, updated_at = ? WHERE organization_id = ? AND id = ?",
                true,
                updatedAt,
                organizationId,
                walletId);
    }

    @Override
    public void markAccountExported(Tx tx, String organizationId, String accountId, Instant updatedAt) {
        Sql.update(
                tx,
                "UPDATE wallet_accounts SET exported = ?, updated_at = ? WHERE organization_id = ? AND id = ?",
                true,
                updatedAt,
                organizationId,
                accountId);
    }

    @Override
    public void delete(Tx tx, String organizationId, String walletId) {
        Sql.update(
                tx,
                "DELETE FROM wallet_accounts WHERE organization_id = ? AND wallet_id = ?",
                organizationId,
                walletId);
        Sql.update(tx, "DELETE FROM wallets WHERE organization_id = ? AND id = ?", organizationId, walletId);
    }

    @Override
    public void insertAccount(Tx tx, WalletAccount a, SealedSecret sealedKey) {
        Sql.update(
                tx,
                "INSERT INTO wallet_accounts (" + ACCOUNT_COLUMNS + ", path_format, address_key, key_sealed) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                a.id(),
                a.organizationId(),
                a.walletId(),
                a.curve().wireName(),
                a.path(),
                a.canonicalPath(),
                a.addressFormat().wireName(),
                a.address(),
                a.publicKey(),
                a.name(),
                a.exported(),
                a.createdAt(),
                a.updatedAt(),
                "PATH_FORMAT_BIP32",
                Addresses.lookupKey(a.address()),
                sealedKey.base64());
    }

    @Override
    public boolean accountExists(Tx tx, String walletId, String curve, String canonicalPath, String addressFormat) {
        return Sql.exists(
                tx,
                "SELECT 1 FROM wallet_accounts WHERE wallet_id = ? AND curve = ? AND canonical_path = ? "
                        + "AND address_format = ?",
                walletId,
                curve,
                canonicalPath,
                addressFormat);
    }

    @Override
    public boolean accountNameTaken(Tx tx, String organizationId, String name) {
        return Sql.exists(
                tx, "SELECT 1 FROM wallet_accounts WHERE organization_id = ? AND name = ?", organizationId, name);
    }

    @Override
    public List<WalletAccount> findAccounts(Tx tx, String organizationId, Collection<String> ids) {
        Collection<String> accountIds = new LinkedHashSet<>(ids);
        if (accountIds.isEmpty()) {
            return List.of();
        }
        return Sql.list(
                tx,
                "SELECT " + ACCOUNT_COLUMNS + " FROM wallet_accounts WHERE organization_id = ? AND id IN ("
                        + Sql.placeholders(accountIds.size()) + ")",
                JdbcWalletRepository::account,
                withOrganization(organizationId, accountIds));
    }

    @Override
    public Optional<WalletAccount> findAccountByAddress(Tx tx, String organizationId, String addressKey) {
        return Sql.list(
                        tx,
                        "SELECT " + ACCOUNT_COLUMNS + " FROM wallet_accounts WHERE organization_id = ? "
                                + "AND address_key = ? ORDER BY id LIMIT 1",
                        JdbcWalletRepository::account,
                        organizationId,
                        addressKey)
                .stream()
                .findFirst();
    }

    @Override
    public Optional<WalletAccount> findAccountByPath(
            Tx tx, String organizationId, String walletId, String canonicalPath) {
        return Sql.list(
                        tx,
                        "SELECT " + ACCOUNT_COLUMNS + " FROM wallet_accounts WHERE organization_id = ? "
                                + "AND wallet_id = ? AND canonical_path = ? ORDER BY id LIMIT 1",
                        JdbcWalletRepository::account,
                        organizationId,
                        walletId,
                        canonicalPath)
                .stream()
                .findFirst();
    }

    @Override
    public Optional<SealedAccount> findSealedAccountByAddress(Tx tx, String organizationId, String addressKey) {
        return Sql.list(
                        tx,
                        "SELECT " + ACCOUNT_COLUMNS + ", key_sealed FROM wallet_accounts WHERE organization_id = ? "
                                + "AND address_key = ? ORDER BY id LIMIT 1",
                        rs -> new SealedAccount(account(rs), new SealedSecret(rs.getString("key_sealed"))),
                        organizationId,
                        addressKey)
                .stream()
                .findFirst();
    }

    @Override
    public List<WalletAccount> pageOfAccounts(
            Tx tx, String organizationId, Optional<String> walletId, Pagination page) {
        StringBuilder sql =
                new StringBuilder("SELECT " + ACCOUNT_COLUMNS + " FROM wallet_accounts WHERE " + "organization_id = ?");
        List<Object> args = new ArrayList<>(List.of(organizationId));
        if (walletId.isPresent()) {
            sql.append(" AND wallet_id = ?");
            args.add(walletId.get());
        }
        boolean backwards = page.before().isPresent();
        page.after().or(page::before).ifPresent(cursor -> {
            sql.append(backwards ? " AND id < ?" : " AND id > ?");
            args.add(cursor);
        });
        sql.append(backwards ? " ORDER BY id DESC" : " ORDER BY id ASC").append(" LIMIT ?");
        args.add(page.limit());
        List<WalletAccount> rows =
                new ArrayList<>(Sql.list(tx, sql.toString(), JdbcWalletRepository::account, args.toArray()));
        if (backwards) {
            Collections.reverse(rows);
        }
        return rows;
    }

    @Override
    public List<WalletAccount> accountsOf(Tx tx, String organizationId, String walletId) {
        return Sql.list(
                tx,
                "SELECT " + ACCOUNT_COLUMNS + " FROM wallet_accounts WHERE organization_id = ? "
                        + "AND wallet_id = ? ORDER BY id",
                JdbcWalletRepository::account,
                organizationId,
                walletId);
    }

    @Override
    public void deleteAccount(Tx tx, String organizationId, String accountId) {
        Sql.update(tx, "DELETE FROM wallet_accounts WHERE organization_id = ? AND id = ?", organizationId, accountId);
    }

    /** The organization id followed by {@code ids}, which must already be free of duplicates. */
    private static Object[] withOrganization(String organizationId, Collection<String> ids) {
        List<Object> args = new ArrayList<>();
        args.add(organizationId);
        args.addAll(ids);
        return args.toArray();
    }

    private static Wallet wallet(ResultSet rs) throws SQLException {
        return new Wallet(
                rs.getString("id"),
                rs.getString("organization_id"),
                rs.getString("name"),
                rs.getBoolean("exported"),
                rs.getBoolean("imported"),
                Sql.instant(rs, "created_at"),
                Sql.instant(rs, "updated_at"));
    }

    private static WalletAccount account(ResultSet rs) throws SQLException {
        return new WalletAccount(
                rs.getString("id"),
                rs.getString("organization_id"),
                rs.getString("wallet_id"),
                KeyCurve.fromWire(rs.getString("curve")).orElseThrow(),
                rs.getString("path"),
                rs.getString("canonical_path"),
                AddressFormat.fromWire(rs.getString("address_format")).orElseThrow(),
                rs.getString("address"),
                rs.getString("public_key"),
                Optional.ofNullable(rs.getString("name")),
                rs.getBoolean("exported"),
                Sql.instant(rs, "created_at"),
                Sql.instant(rs, "updated_at"));
    }
}
