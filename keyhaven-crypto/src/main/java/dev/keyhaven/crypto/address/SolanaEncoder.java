package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.KeyCurve;

/** Solana: the Ed25519 key itself in Base58 (Bitcoin alphabet, no checksum). */
final class SolanaEncoder implements AddressEncoder {

    @Override
    public String encode(KeyCurve curve, byte[] publicKey) {
        return Base58.BITCOIN.encode(PublicKeys.ed25519(curve, publicKey));
    }
}
