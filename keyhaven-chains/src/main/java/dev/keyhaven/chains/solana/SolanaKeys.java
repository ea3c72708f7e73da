package dev.keyhaven.chains.solana;

import dev.keyhaven.crypto.address.Base58Text;

/**
 * How Solana writes its 32-byte keys, program ids and block hashes: Base58 in Bitcoin's alphabet without a checksum.
 * Program ids and derived addresses are not curve points, so this never validates a point the way an address encoder
 * for a signing key does.
 */
final class SolanaKeys {
    static final int SIZE = 32;
    static final String SYSTEM_PROGRAM = "11111111111111111111111111111111";
    static final String TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
    static final String TOKEN_2022_PROGRAM = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";

    private SolanaKeys() {}

    static String base58(byte[] key) {
        return Base58Text.encode(key);
    }
}
