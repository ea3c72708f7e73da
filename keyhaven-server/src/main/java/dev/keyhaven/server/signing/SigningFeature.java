package dev.keyhaven.server.signing;

import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.privatekey.PrivateKeyRepository;
import dev.keyhaven.server.smartcontract.ContractInterfaces;
import dev.keyhaven.server.wallet.WalletRepository;
import java.util.List;

/** Signing assembled: raw payloads and transactions, with a wallet account's or a private key's key. */
public final class SigningFeature {
    private final List<ActivityHandler<?>> handlers;

    public SigningFeature(
            WalletRepository wallets, PrivateKeyRepository privateKeys, Custody custody, ContractInterfaces contracts) {
        SigningKeys keys = new SigningKeys(wallets, privateKeys);
        this.handlers = List.of(
                new SignRawPayloadHandler(keys, custody),
                new SignRawPayloadsHandler(keys, custody),
                new SignTransactionHandler(keys, custody, contracts));
    }

    public List<ActivityHandler<?>> handlers() {
        return handlers;
    }
}
