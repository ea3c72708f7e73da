package dev.keyhaven.server.testing;

import dev.keyhaven.crypto.Digests;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * BIP-174 PSBTs for tests, spending outputs of made-up previous transactions: each input carries its UTXO as
 * witness_utxo and, when asked, the whole previous transaction as non_witness_utxo.
 */
public final class Psbts {
    private Psbts() {}

    /** An output: {@code value} sats to {@code script}. */
    public record Output(long value, byte[] script) {}

    /** A spent output, and whether the PSBT carries its previous transaction and the output itself. */
    public record Spent(Output output, boolean withPreviousTransaction, boolean withWitnessUtxo) {
        public Spent(Output output, boolean withPreviousTransaction) {
            this(output, withPreviousTransaction, true);
        }
    }

    /** A version 2 transaction spending {@code spent} (output 0 of each made-up previous transaction). */
    public static byte[] psbt(List<Spent> spent, List<Output> outputs) {
        ByteArrayOutputStream tx = new ByteArrayOutputStream();
        int32(tx, 2);
        compact(tx, spent.size());
        for (Spent s : spent) {
            tx.writeBytes(Digests.sha256d(previous(s.output())));
            int32(tx, 0);
            compact(tx, 0);
            int32(tx, 0xfffffffd);
        }
        compact(tx, outputs.size());
        outputs.forEach(o -> output(tx, o));
        int32(tx, 0);

        ByteArrayOutputStream psbt = new ByteArrayOutputStream();
        psbt.writeBytes(new byte[] {0x70, 0x73, 0x62, 0x74, (byte) 0xff});
        entry(psbt, new byte[] {0x00}, tx.toByteArray());
        psbt.write(0);
        for (Spent s : spent) {
            if (s.withPreviousTransaction()) {
                entry(psbt, new byte[] {0x00}, previous(s.output()));
            }
            if (s.withWitnessUtxo()) {
                ByteArrayOutputStream utxo = new ByteArrayOutputStream();
                output(utxo, s.output());
                entry(psbt, new byte[] {0x01}, utxo.toByteArray());
            }
            psbt.write(0);
        }
        outputs.forEach(o -> psbt.write(0));
        return psbt.toByteArray();
    }

    /** A made-up transaction whose output 0 is {@code output}; its input spends nothing real. */
    private static byte[] previous(Output output) {
        ByteArrayOutputStream tx = new ByteArrayOutputStream();
        int32(tx, 2);
        compact(tx, 1);
        tx.writeBytes(Digests.sha256(output.script()));
        int32(tx, 7);
        compact(tx, 0);
        int32(tx, 0xffffffff);
        compact(tx, 1);
        output(tx, output);
        int32(tx, 0);
        return tx.toByteArray();
    }

    private static void output(ByteArrayOutputStream out, Output output) {
        out.writeBytes(ByteBuffer.allocate(8)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putLong(output.value())
                .array());
        compact(out, output.script().length);
        out.writeBytes(output.script());
    }

    private static void entry(ByteArrayOutputStream out, byte[] key, byte[] value) {
        compact(out, key.length);
        out.writeBytes(key);
        compact(out, value.length);
        out.writeBytes(value);
    }

    private static void int32(ByteArrayOutputStream out, int value) {
        out.writeBytes(ByteBuffer.allocate(4)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(value)
                .array());
    }

    private static void compact(ByteArrayOutputStream out, int value) {
        if (value < 0xfd) {
            out.write(value);
        } else {
            out.write(0xfd);
            out.write(value & 0xff);
            out.write(value >>> 8);
        }
    }
}
