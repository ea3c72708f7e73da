package dev.keyhaven.chains.solana;

import java.math.BigInteger;
import java.util.List;

/**
 * Tokens an SPL Token or Token-2022 instruction moves.
 *
 * @param from the source token account, Base58 or {@link MessageAccount#LOOKUP}
 * @param to the destination token account
 * @param amount in the mint's base units
 * @param owner the authority that approves the transfer: the source's owner or delegate, or a multisig account
 * @param signers the accounts after the authority, which sign for a multisig authority (empty when there are none)
 * @param mint the mint, or the empty string for a plain {@code Transfer}, which names none
 */
record TokenTransfer(String from, String to, BigInteger amount, String owner, List<String> signers, String mint) {
    TokenTransfer {
        signers = List.copyOf(signers);
    }
}
