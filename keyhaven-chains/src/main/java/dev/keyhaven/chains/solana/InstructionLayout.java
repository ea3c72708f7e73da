package dev.keyhaven.chains.solana;

import dev.keyhaven.chains.TransactionFormatException;
import java.util.List;

/** The checks that a known instruction of a native program has the data and accounts its layout needs. */
final class InstructionLayout {
    private InstructionLayout() {}

    /**
     * @param index the instruction's position in the message
     * @param name the instruction, e.g. {@code a System Program Transfer}
     */
    static void requireLength(int index, String name, byte[] data, int length) {
        if (data.length != length) {
            throw new TransactionFormatException("instruction " + index + ": " + name + " has " + length
                    + " bytes of data, this one " + data.length);
        }
    }

    static void requireAccounts(int index, String name, List<MessageAccount> accounts, int count) {
        if (accounts.size() < count) {
            throw new TransactionFormatException("instruction " + index + ": " + name + " needs " + count
                    + " accounts, this one has " + accounts.size());
        }
    }
}
