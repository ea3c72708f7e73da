package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.KeyCurve;

/**
 * XRP Ledger classic addresses: the AccountID RIPEMD-160(SHA-256(compressed key)) behind type prefix 0x00, in
 * Base58Check with the Ripple alphabet (so they start with {@code r}).
 */
final class XrpEncoder implements AddressEncoder {
    private static final int ACCOUNT_ID_PREFIX = 0x00;

    @Override
    public String encode(KeyCurve curve, byte[] publicKey) {
        byte[] accountId = Digests.hash160(PublicKeys.compressed(curve, publicKey));
        return Base58Check.encode(Base58.RIPPLE, ACCOUNT_ID_PREFIX, accountId);
    }
}
