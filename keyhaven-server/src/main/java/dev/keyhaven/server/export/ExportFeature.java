package dev.keyhaven.server.export;

import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.custody.KeyTransfer;
import dev.keyhaven.server.privatekey.PrivateKeyRepository;
import dev.keyhaven.server.wallet.WalletRepository;
import java.util.List;

/** Exports assembled: a wallet's mnemonic, an account's or a private key's key, sealed to the caller's target key. */
public final class ExportFeature {
    private final List<ActivityHandler<?>> handlers;

    public ExportFeature(WalletRepository wallets, PrivateKeyRepository privateKeys, KeyTransfer transfer) {
        this.handlers = List.of(
                ExportHandler.wallet(wallets, transfer),
                ExportHandler.walletAccount(wallets, transfer),
                ExportHandler.privateKey(privateKeys, transfer));
    }

    public List<ActivityHandler<?>> handlers() {
        return handlers;
    }
}
