package dev.keyhaven.chains.solana;

import java.util.List;

/**
 * One instruction as a message stores it: indexes into the message's account list (static keys, then the accounts
 * loaded from lookup tables) and opaque data for the program.
 *
 * @param programIndex the program's index among the static keys (the runtime refuses a program from a lookup table)
 * @param accountIndexes the instruction's accounts, in the order the program reads them
 */
record CompiledInstruction(int programIndex, List<Integer> accountIndexes, byte[] data) {
    CompiledInstruction {
        accountIndexes = List.copyOf(accountIndexes);
        data = data.clone();
    }

    @Override
    public byte[] data() {
        return data.clone();
    }
}
