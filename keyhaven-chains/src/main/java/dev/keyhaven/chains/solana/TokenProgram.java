package dev.keyhaven.chains.solana;

import dev.keyhaven.chains.TransactionFormatException;
import java.math.BigInteger;
import java.util.List;
import java.util.Optional;

/**
 * Transfers of the SPL Token program and of Token-2022: {@code Transfer}, {@code TransferChecked}, and Token-2022's
 * {@code TransferCheckedWithFee} (transfer-fee extension). Their data is a one-byte instruction tag then packed
 * little-endian fields. The programs tolerate trailing bytes; Keyhaven refuses a transfer whose data is not exactly the
 * instruction's layout, or that lacks its accounts, rather than guess what a policy should see.
 */
final class TokenProgram {
    private static final int TRANSFER = 3;
    private static final int TRANSFER_CHECKED = 12;
    private static final int TRANSFER_FEE_EXTENSION = 26;
    private static final int TRANSFER_CHECKED_WITH_FEE = 1;
    /** Tag, u64 amount. */
    private static final int TRANSFER_SIZE = 9;
    /** Tag, u64 amount, u8 decimals. */
    private static final int TRANSFER_CHECKED_SIZE = 10;
    /** Tag, sub-instruction tag, u64 amount, u8 decimals, u64 fee. */
    private static final int TRANSFER_CHECKED_WITH_FEE_SIZE = 19;

    private TokenProgram() {}

    /**
     * The tokens an instruction to {@code program} (SPL Token or Token-2022) moves, if it is one of the transfers.
     *
     * @param index the instruction's position in the message, for errors
     * @throws TransactionFormatException for a transfer whose data or accounts do not fit its layout
     */
    static Optional<TokenTransfer> transfer(int index, String program, List<MessageAccount> accounts, byte[] data) {
        if (data.length == 0) {
            return Optional.empty();
        }
        int tag = data[0] & 0xff;
        if (tag == TRANSFER) {
            InstructionLayout.requireLength(index, "an SPL Token Transfer", data, TRANSFER_SIZE);
            // Accounts: source, destination, authority, then a multisig authority's signers.
            InstructionLayout.requireAccounts(index, "an SPL Token Transfer", accounts, 3);
            return Optional.of(new TokenTransfer(
                    key(accounts, 0), key(accounts, 1), amount(data, 1), key(accounts, 2), signers(accounts, 3), ""));
        }
        if (tag == TRANSFER_CHECKED) {
            InstructionLayout.requireLength(index, "an SPL Token TransferChecked", data, TRANSFER_CHECKED_SIZE);
            return Optional.of(checked(index, "an SPL Token TransferChecked", accounts, data, 1));
        }
        boolean withFee = program.equals(SolanaKeys.TOKEN_2022_PROGRAM)
                && tag == TRANSFER_FEE_EXTENSION
                && data.length > 1
                && data[1] == TRANSFER_CHECKED_WITH_FEE;
        if (withFee) {
            InstructionLayout.requireLength(
                    index, "a Token-2022 TransferCheckedWithFee", data, TRANSFER_CHECKED_WITH_FEE_SIZE);
            return Optional.of(checked(index, "a Token-2022 TransferCheckedWithFee", accounts, data, 2));
        }
        return Optional.empty();
    }

    /** Accounts: source, mint, destination, authority, then a multisig authority's signers. */
    private static TokenTransfer checked(
            int index, String name, List<MessageAccount> accounts, byte[] data, int amountOffset) {
        InstructionLayout.requireAccounts(index, name, accounts, 4);
        return new TokenTransfer(
                key(accounts, 0),
                key(accounts, 2),
                amount(data, amountOffset),
                key(accounts, 3),
                signers(accounts, 4),
                key(accounts, 1));
    }

    private static BigInteger amount(byte[] data, int offset) {
        return LittleEndian.unsigned(data, offset, Long.BYTES);
    }

    private static String key(List<MessageAccount> accounts, int index) {
        return accounts.get(index).key();
    }

    private static List<String> signers(List<MessageAccount> accounts, int from) {
        return accounts.subList(from, accounts.size()).stream()
                .map(MessageAccount::key)
                .toList();
    }
}
