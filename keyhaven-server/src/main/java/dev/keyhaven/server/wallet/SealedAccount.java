package dev.keyhaven.server.wallet;

import dev.keyhaven.server.custody.SealedSecret;

/** An account with its sealed private key, read in one go on the signing path. */
public record SealedAccount(WalletAccount account, SealedSecret sealedKey) {}
