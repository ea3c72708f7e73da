package dev.keyhaven.server.wallet;

import dev.keyhaven.policy.Value;
import dev.keyhaven.server.api.WireTime;
import java.util.Map;
import java.util.Optional;

/** The wire forms {@code v1Wallet} and {@code v1WalletAccount}, with every required member present. */
public final class WalletViews {
    private WalletViews() {}

    /** {@code v1Wallet}. */
    public record WireWallet(
            String walletId,
            String walletName,
            WireTime createdAt,
            WireTime updatedAt,
            boolean exported,
            boolean imported) {}

    /** {@code v1WalletAccount}; {@code walletDetails} only when asked for. */
    public record WireWalletAccount(
            String walletAccountId,
            String organizationId,
            String walletId,
            String curve,
            String pathFormat,
            String path,
            String addressFormat,
            String address,
            WireTime createdAt,
            WireTime updatedAt,
            String publicKey,
            Optional<WireWallet> walletDetails,
            Optional<String> name) {}

    /** The policy language's {@code wallet}: {@code id}, {@code label}, {@code imported}, {@code exported}. */
    public static Value policyValue(Wallet w) {
        return Value.struct(Map.of(
                "id",
                Value.of(w.id()),
                "label",
                Value.of(w.name()),
                "imported",
                Value.of(w.imported()),
                "exported",
                Value.of(w.exported())));
    }

    public static WireWallet wallet(Wallet w) {
        return new WireWallet(
                w.id(), w.name(), WireTime.of(w.createdAt()), WireTime.of(w.updatedAt()), w.exported(), w.imported());
    }

    public static WireWalletAccount account(WalletAccount a, Optional<Wallet> details) {
        return new WireWalletAccount(
                a.id(),
                a.organizationId(),
                a.walletId(),
                a.curve().wireName(),
                AccountParams.PATH_FORMAT_BIP32,
                a.path(),
                a.addressFormat().wireName(),
                a.address(),
                WireTime.of(a.createdAt()),
                WireTime.of(a.updatedAt()),
                a.publicKey(),
                details.map(WalletViews::wallet),
                a.name());
    }
}
