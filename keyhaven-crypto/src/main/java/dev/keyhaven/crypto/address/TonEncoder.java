package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.KeyCurve;

/** TON: the address of the given wallet contract for the key, in {@link TonAddress#STRING_FORM}. */
final class TonEncoder implements AddressEncoder {
    private final TonWallet wallet;

    TonEncoder(TonWallet wallet) {
        this.wallet = wallet;
    }

    @Override
    public String encode(KeyCurve curve, byte[] publicKey) {
        byte[] accountId = wallet.accountId(PublicKeys.ed25519(curve, publicKey));
        return TonAddress.friendly(TonWallet.WORKCHAIN, accountId, TonAddress.STRING_FORM);
    }
}
