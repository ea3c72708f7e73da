package dev.keyhaven.server.wallet;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.custody.Custody;
import java.util.List;

/**
 * The parameters of a new wallet ({@code v1CreateWalletIntent}, and {@code v1WalletParams} of
 * create_sub_organization): a unique name, the accounts to derive at once, and the mnemonic length (12 by default).
 */
public record NewWallet(String walletName, List<AccountParams> accounts, int mnemonicLength) {
    static final int DEFAULT_MNEMONIC_LENGTH = 12;

    public static NewWallet read(Params p) {
        String name = p.requiredString("walletName");
        List<AccountParams> accounts = p.requiredObjects("accounts", AccountParams::read);
        int length = p.optionalInt("mnemonicLength").orElse(DEFAULT_MNEMONIC_LENGTH);
        if (!Custody.MNEMONIC_WORD_COUNTS.contains(length)) {
            throw ApiException.badField(p.pathOf("mnemonicLength"), "must be 12, 15, 18, 21 or 24");
        }
        return new NewWallet(name, accounts, length);
    }
}
