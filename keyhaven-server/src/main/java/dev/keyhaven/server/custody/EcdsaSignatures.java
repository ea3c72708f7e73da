package dev.keyhaven.server.custody;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.util.Arrays;

/** P-256 ECDSA signatures between DER (what stamps and bundles carry) and raw {@code r ‖ s} (what JWTs carry). */
public final class EcdsaSignatures {
    private static final int HALF = 32;

    private EcdsaSignatures() {}

    /** DER {@code SEQUENCE {INTEGER r, INTEGER s}} to 64 bytes {@code r ‖ s}. */
    public static byte[] derToRaw(byte[] der) {
        if (der.length < 8 || der[0] != 0x30) {
            throw new IllegalArgumentException("not a DER ECDSA signature");
        }
        int offset = (der[1] & 0x80) != 0 ? 2 + (der[1] & 0x7f) : 2;
        byte[] out = new byte[2 * HALF];
        for (int part = 0; part < 2; part++) {
            if (der[offset] != 0x02) {
                throw new IllegalArgumentException("not a DER ECDSA signature");
            }
            int length = der[offset + 1];
            byte[] value = Arrays.copyOfRange(der, offset + 2, offset + 2 + length);
            byte[] fixed = unsigned(new BigInteger(1, value));
            System.arraycopy(fixed, 0, out, part * HALF, HALF);
            offset += 2 + length;
        }
        return out;
    }

    /** 64 bytes {@code r ‖ s} to DER. */
    public static byte[] rawToDer(byte[] raw) {
        if (raw.length != 2 * HALF) {
            throw new IllegalArgumentException("a raw P-256 signature has 64 bytes");
        }
        byte[] r = new BigInteger(1, Arrays.copyOfRange(raw, 0, HALF)).toByteArray();
        byte[] s = new BigInteger(1, Arrays.copyOfRange(raw, HALF, 2 * HALF)).toByteArray();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0x30);
        out.write(4 + r.length + s.length);
        out.write(0x02);
        out.write(r.length);
        out.writeBytes(r);
        out.write(0x02);
        out.write(s.length);
        out.writeBytes(s);
        return out.toByteArray();
    }

    private static byte[] unsigned(BigInteger value) {
        byte[] bytes = value.toByteArray();
        if (bytes.length > HALF + 1 || (bytes.length == HALF + 1 && bytes[0] != 0)) {
            throw new IllegalArgumentException("not a P-256 signature");
        }
        byte[] out = new byte[HALF];
        int copy = Math.min(bytes.length, HALF);
        System.arraycopy(bytes, bytes.length - copy, out, HALF - copy, copy);
        return out;
    }
}
