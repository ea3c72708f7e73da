package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.KeyCurve;

/** Turns a public key into the address string of one format family. One implementation per family, one per file. */
public interface AddressEncoder {

    /**
     * @param publicKey 33-byte compressed or 65-byte uncompressed SEC1 for ECDSA curves, 32 bytes for Ed25519
     * @throws IllegalArgumentException when the key is not a valid point of {@code curve} or the encoder cannot use
     *     that curve
     */
    String encode(KeyCurve curve, byte[] publicKey);
}
