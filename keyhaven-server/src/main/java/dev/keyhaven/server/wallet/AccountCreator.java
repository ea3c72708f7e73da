package dev.keyhaven.server.wallet;

import dev.keyhaven.crypto.address.Addresses;
import dev.keyhaven.crypto.address.IncompatibleCurveException;
import dev.keyhaven.server.activity.AddressLog;
import dev.keyhaven.server.activity.CreatedAddress;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.custody.DerivedKey;
import dev.keyhaven.server.custody.WalletSeed;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * Derives, checks and stores the accounts of a wallet: shared by create_wallet, create_wallet_accounts and the
 * wallet of create_sub_organization. Each key is derived once, here, and stored sealed.
 */
public final class AccountCreator {
    private final WalletRepository wallets;

    public AccountCreator(WalletRepository wallets) {
        this.wallets = wallets;
    }

    /**
     * Creates the accounts in order and returns their addresses, each also reported to {@code log}. With
     * {@code persist} false the addresses are derived and returned but nothing is stored.
     */
    public List<String> create(
            Tx tx,
            String organizationId,
            String walletId,
            WalletSeed seed,
            List<AccountParams> accounts,
            boolean persist,
            Instant now,
            Ids ids,
            AddressLog log) {
        List<String> addresses = new ArrayList<>(accounts.size());
        Set<String> derivations = new HashSet<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < accounts.size(); i++) {
            AccountParams params = accounts.get(i);
            String label = "accounts[" + i + "]";
            String curve = params.curve().wireName();
            String format = params.addressFormat().wireName();
            if (!params.addressFormat().supports(params.curve())) {
                throw ApiException.badRequest(
                        label + ": address format " + format + " does not support curve " + curve);
            }
            String canonicalPath = params.derivation().toString();
            if (!derivations.add(curve + " " + canonicalPath + " " + format)
                    || wallets.accountExists(tx, walletId, curve, canonicalPath, format)) {
                throw ApiException.badRequest(label + ": wallet " + walletId + " already has an account at "
                        + params.path() + " on " + curve + " with " + format);
            }
            if (params.name().isPresent()
                    && (!names.add(params.name().get())
                            || wallets.accountNameTaken(
                                    tx, organizationId, params.name().get()))) {
                throw ApiException.badRequest(
                        label + ": a wallet account named '" + params.name().get() + "' already exists");
            }
            String accountId = ids.next();
            DerivedKey key = seed.derive(params.curve(), params.derivation(), accountId);
            String address;
            try {
                address = Addresses.encode(params.addressFormat(), params.curve(), key.publicKey());
            } catch (IncompatibleCurveException e) {
                throw ApiException.badRequest(label + ": " + e.getMessage());
            }
            addresses.add(address);
            log.created(CreatedAddress.ofWalletAccount(organizationId, walletId, params.path(), address));
            if (persist) {
                wallets.insertAccount(
                        tx,
                        new WalletAccount(
                                accountId,
                                organizationId,
                                walletId,
                                params.curve(),
                                params.path(),
                                canonicalPath,
                                params.addressFormat(),
                                address,
                                HexFormat.of().formatHex(key.publicKey()),
                                params.name(),
                                false,
                                now,
                                now),
                        key.sealedKey());
            }
        }
        return List.copyOf(addresses);
    }
}
