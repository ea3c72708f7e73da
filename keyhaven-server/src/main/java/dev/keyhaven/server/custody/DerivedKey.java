package dev.keyhaven.server.custody;

/**
 * A key derived (or generated) for an account or private key: its public key (33-byte compressed for ECDSA curves,
 * 32 bytes for Ed25519) and the private key sealed for that resource.
 */
public record DerivedKey(byte[] publicKey, SealedSecret sealedKey) {}
