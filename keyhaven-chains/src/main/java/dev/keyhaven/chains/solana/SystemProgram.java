package dev.keyhaven.chains.solana;

import dev.keyhaven.chains.TransactionFormatException;
import java.math.BigInteger;
import java.util.List;
import java.util.Optional;

/**
 * The System Program's transfers of lamports. Its instructions are bincode: a u32 variant, then the fields. The runtime
 * tolerates trailing bytes; Keyhaven refuses a transfer whose data is not exactly the variant's layout, or that lacks
 * the accounts it moves lamports between, rather than guess what a policy should see.
 */
final class SystemProgram {
    private static final int TRANSFER = 2;
    private static final int TRANSFER_WITH_SEED = 11;
    private static final int VARIANT_SIZE = 4;
    /** Variant, lamports. */
    private static final int TRANSFER_SIZE = 12;
    /** Variant, lamports, and the seed's u64 length; the seed and its owner program follow. */
    private static final int SEED_OFFSET = 20;

    private SystemProgram() {}

    /**
     * The lamports a System Program instruction moves, if it is a Transfer or TransferWithSeed.
     *
     * @param index the instruction's position in the message, for errors
     * @throws TransactionFormatException for a transfer whose data or accounts do not fit its layout
     */
    static Optional<NativeTransfer> transfer(int index, List<MessageAccount> accounts, byte[] data) {
        if (data.length < VARIANT_SIZE) {
            // No instruction at all: the program refuses it, so it moves nothing.
            return Optional.empty();
        }
        long variant = LittleEndian.unsigned(data, 0, VARIANT_SIZE).longValue();
        if (variant == TRANSFER) {
            InstructionLayout.requireLength(index, "a System Program Transfer", data, TRANSFER_SIZE);
            InstructionLayout.requireAccounts(index, "a System Program Transfer", accounts, 2);
            return Optional.of(
                    new NativeTransfer(accounts.get(0).key(), accounts.get(1).key(), lamports(data)));
        }
        if (variant == TRANSFER_WITH_SEED) {
            if (data.length < SEED_OFFSET) {
                throw new TransactionFormatException("instruction " + index + ": a System Program TransferWithSeed "
                        + "has at least " + SEED_OFFSET + " bytes of data, this one " + data.length);
            }
            BigInteger seedLength = LittleEndian.unsigned(data, TRANSFER_SIZE, SEED_OFFSET - TRANSFER_SIZE);
            BigInteger expected = seedLength.add(BigInteger.valueOf(SEED_OFFSET + SolanaKeys.SIZE));
            if (!expected.equals(BigInteger.valueOf(data.length))) {
                throw new TransactionFormatException("instruction " + index + ": a System Program TransferWithSeed "
                        + "with its seed length needs " + expected + " bytes of data, this one has " + data.length);
            }
            // Accounts: the derived account debited, its base (which signs), the recipient.
            InstructionLayout.requireAccounts(index, "a System Program TransferWithSeed", accounts, 3);
            return Optional.of(
                    new NativeTransfer(accounts.get(0).key(), accounts.get(2).key(), lamports(data)));
        }
        return Optional.empty();
    }

    private static BigInteger lamports(byte[] data) {
        return LittleEndian.unsigned(data, VARIANT_SIZE, Long.BYTES);
    }
}
