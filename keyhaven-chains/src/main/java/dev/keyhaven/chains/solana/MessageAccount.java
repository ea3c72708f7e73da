package dev.keyhaven.chains.solana;

/**
 * An account of a message as policies see it: its Base58 key, or {@link #LOOKUP} when it is loaded from an address
 * lookup table, and its role from the message's layout.
 */
record MessageAccount(String key, boolean signer, boolean writable) {
    /** What stands for an address loaded from a lookup table, which Keyhaven cannot resolve without chain state. */
    static final String LOOKUP = "ADDRESS_TABLE_LOOKUP";
}
