package dev.keyhaven.server.testing;

import dev.keyhaven.crypto.address.Base58Text;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/**
 * Legacy Solana wire transactions for tests, laid out as the runtime reads them: the signature slots (zeros unless
 * given), then the message: header, account keys, recent blockhash, instructions. Keys are base58.
 */
public final class SolanaTransactions {
    public static final String SYSTEM_PROGRAM = "11111111111111111111111111111111";
    private static final String BLOCKHASH = "EETubP5AKHgjPAhzPAFcb8BAY1hMH639CWCFTqi3hq1k";

    private SolanaTransactions() {}

    /** One instruction: the program's index among the keys, its accounts' indexes, its data. */
    public record Instruction(int program, List<Integer> accounts, byte[] data) {}

    /**
     * A legacy transaction. {@code keys} are in the header's order: the {@code signers} first (all writable), then
     * writable non-signers ({@code writable} of them), then read-only non-signers.
     */
    public static byte[] legacy(List<String> keys, int signers, int writable, List<Instruction> instructions) {
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        message.write(signers);
        message.write(0);
        message.write(keys.size() - signers - writable);
        compact(message, keys.size());
        keys.forEach(key -> message.writeBytes(Base58Text.decode(key)));
        message.writeBytes(Base58Text.decode(BLOCKHASH));
        compact(message, instructions.size());
        for (Instruction instruction : instructions) {
            message.write(instruction.program());
            compact(message, instruction.accounts().size());
            instruction.accounts().forEach(message::write);
            compact(message, instruction.data().length);
            message.writeBytes(instruction.data());
        }
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        compact(wire, signers);
        wire.writeBytes(new byte[64 * signers]);
        wire.writeBytes(message.toByteArray());
        return wire.toByteArray();
    }

    /** {@code from} sends {@code lamports} to {@code to}, paying the fee: System Program Transfer. */
    public static byte[] transfer(String from, String to, long lamports) {
        return legacy(
                List.of(from, to, SYSTEM_PROGRAM),
                1,
                1,
                List.of(new Instruction(2, List.of(0, 1), systemTransfer(lamports))));
    }

    /** System Program Transfer's data: instruction 2 (u32 LE), then lamports (u64 LE). */
    public static byte[] systemTransfer(long lamports) {
        return ByteBuffer.allocate(12)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(2)
                .putLong(lamports)
                .array();
    }

    /** The message: what follows the signature slots of a transaction with {@code signers} slots. */
    public static byte[] message(byte[] wire, int signers) {
        int start = 1 + 64 * signers;
        return Arrays.copyOfRange(wire, start, wire.length);
    }

    private static void compact(ByteArrayOutputStream out, int value) {
        int rest = value;
        while (rest >= 0x80) {
            out.write((rest & 0x7f) | 0x80);
            rest >>>= 7;
        }
        out.write(rest);
    }
}
