package dev.keyhaven.server.keyimport;

import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.custody.KeyTransfer;
import dev.keyhaven.server.privatekey.PrivateKeyCreator;
import dev.keyhaven.server.user.UserRepository;
import dev.keyhaven.server.wallet.WalletCreator;
import java.util.List;

/** Imports assembled: the import targets handed out, and the wallets and private keys imported to them. */
public final class ImportFeature {
    private final List<ActivityHandler<?>> handlers;

    public ImportFeature(
            ImportTargetRepository targetRepository,
            UserRepository users,
            KeyTransfer transfer,
            WalletCreator wallets,
            PrivateKeyCreator privateKeys) {
        ImportTargets targets = new ImportTargets(targetRepository, users, transfer);
        this.handlers = List.of(
                new InitImportHandler(targets, ImportKind.WALLET),
                new ImportWalletHandler(targets, wallets),
                new InitImportHandler(targets, ImportKind.PRIVATE_KEY),
                new ImportPrivateKeyHandler(targets, privateKeys));
    }

    public List<ActivityHandler<?>> handlers() {
        return handlers;
    }
}
