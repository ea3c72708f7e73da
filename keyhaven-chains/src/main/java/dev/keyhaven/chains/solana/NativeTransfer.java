package dev.keyhaven.chains.solana;

import java.math.BigInteger;

/**
 * Lamports a System Program instruction moves.
 *
 * @param from the debited account (for TransferWithSeed, the derived account), Base58 or
 *     {@link MessageAccount#LOOKUP}
 * @param to the credited account
 */
record NativeTransfer(String from, String to, BigInteger lamports) {}
