package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.KeyCurve;

/**
 * Pay-to-public-key-hash: Base58Check(version ‖ RIPEMD-160(SHA-256(compressed key))). Bitcoin's networks and
 * Dogecoin differ only in the version byte. The key is always hashed compressed, as Turnkey reports it, even when the
 * caller passes the uncompressed form.
 */
final class P2pkhEncoder implements AddressEncoder {
    private final int version;

    P2pkhEncoder(int version) {
        this.version = version;
    }

    @Override
    public String encode(KeyCurve curve, byte[] publicKey) {
        return Base58Check.encode(Base58.BITCOIN, version, Digests.hash160(PublicKeys.compressed(curve, publicKey)));
    }
}
