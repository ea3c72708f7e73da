/**
 * Solana: parsing the wire transactions {@code @turnkey/solana} sends (legacy and v0 messages), the message an Ed25519
 * key signs and the slot its signature goes in, and {@code solana.tx}, the value policies read: accounts,
 * instructions, System Program and SPL Token transfers, address table lookups, and the arguments of Anchor programs
 * whose IDL was uploaded.
 *
 * <p>Parsing ({@link dev.keyhaven.chains.solana.SolanaTransaction#parse}) checks everything the Solana runtime's
 * sanitisation checks, so a transaction Keyhaven signs is one the network can accept. Addresses loaded from address
 * lookup tables are never resolved (that needs chain state): they appear as {@code ADDRESS_TABLE_LOOKUP}.
 */
package dev.keyhaven.chains.solana;
