package dev.keyhaven.chains.solana;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/** Writes Solana wire bytes by hand, for transactions no library would produce. */
final class WireBuilder {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    /** A compact-u16 in its canonical encoding. */
    WireBuilder compact(int value) {
        int rest = value;
        while (rest >= 0x80) {
            out.write((rest & 0x7f) | 0x80);
            rest >>>= 7;
        }
        out.write(rest);
        return this;
    }

    WireBuilder bytes(int... values) {
        for (int value : values) {
            out.write(value);
        }
        return this;
    }

    WireBuilder bytes(byte[] values) {
        out.writeBytes(values);
        return this;
    }

    /** 32 bytes of {@code fill}: a stand-in key, block hash or table. */
    WireBuilder key(int fill) {
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) fill);
        return bytes(key);
    }

    /** {@code count} empty signature slots. */
    WireBuilder slots(int count) {
        compact(count);
        return bytes(new byte[64 * count]);
    }

    /** An instruction: program index, account indexes, data. */
    WireBuilder instruction(int program, int[] accounts, byte[] data) {
        bytes(program);
        compact(accounts.length);
        bytes(accounts);
        compact(data.length);
        return bytes(data);
    }

    byte[] build() {
        return out.toByteArray();
    }
}
