package dev.keyhaven.crypto.sign;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * r and s as 32-byte big-endian arrays, v the recovery id 0 or 1 (always 0 for Ed25519).
 *
 * <p>v can in principle be 2 or 3 for ECDSA (when R.x ≥ n); that happens with probability about 2⁻¹²⁸, so callers
 * may treat it as impossible, but the record still represents it faithfully. The arrays are copied in and out so a
 * signature cannot be changed after it is made, and equality compares their contents.
 */
public record Signature(byte[] r, byte[] s, int v) {
    private static final HexFormat HEX = HexFormat.of();

    public Signature {
        Objects.requireNonNull(r, "r");
        Objects.requireNonNull(s, "s");
        if (r.length != 32 || s.length != 32) {
            throw new IllegalArgumentException("r and s must be 32 bytes each");
        }
        if (v < 0 || v > 3) {
            throw new IllegalArgumentException("v must be a recovery id between 0 and 3");
        }
        r = r.clone();
        s = s.clone();
    }

    @Override
    public byte[] r() {
        return r.clone();
    }

    @Override
    public byte[] s() {
        return s.clone();
    }

    /** r as 64 lowercase hex digits without {@code 0x}, as sign_raw_payload returns it. */
    public String rHex() {
        return HEX.formatHex(r);
    }

    /** s as 64 lowercase hex digits without {@code 0x}. */
    public String sHex() {
        return HEX.formatHex(s);
    }

    /** v as two hex digits: {@code "00"} or {@code "01"} (Ethereum's 27/28 is added by clients, not here). */
    public String vHex() {
        return HEX.toHexDigits((byte) v);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Signature other && v == other.v && Arrays.equals(r, other.r) && Arrays.equals(s, other.s);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(r) + Arrays.hashCode(s)) + v;
    }

    @Override
    public String toString() {
        return "Signature[r=" + rHex() + ", s=" + sHex() + ", v=" + v + "]";
    }
}
