package dev.keyhaven.server.activity;

import java.util.Optional;

/**
 * An address an activity created, as its app proof states it: a wallet account's (wallet and derivation path) or a
 * private key's (the key's id; there is no derivation path).
 */
public record CreatedAddress(
        String organizationId,
        Optional<String> walletId,
        Optional<String> derivationPath,
        Optional<String> privateKeyId,
        String address) {

    public static CreatedAddress ofWalletAccount(
            String organizationId, String walletId, String derivationPath, String address) {
        return new CreatedAddress(
                organizationId, Optional.of(walletId), Optional.of(derivationPath), Optional.empty(), address);
    }

    public static CreatedAddress ofPrivateKey(String organizationId, String privateKeyId, String address) {
        return new CreatedAddress(
                organizationId, Optional.empty(), Optional.empty(), Optional.of(privateKeyId), address);
    }
}
