package dev.keyhaven.crypto.hd;

import dev.keyhaven.crypto.SecretBytes;
import java.util.Arrays;

/** A private key and its chain code during derivation. Both are secret; {@link #close()} wipes them. */
final class ExtendedKey implements AutoCloseable {
    static final int KEY_BYTES = 32;

    private final byte[] key;
    private final byte[] chainCode;

    /** Takes ownership of both arrays. */
    ExtendedKey(byte[] key, byte[] chainCode) {
        this.key = key;
        this.chainCode = chainCode;
    }

    /** I = I_L ‖ I_R as the key I_L and chain code I_R; the caller still wipes {@code i}. */
    static ExtendedKey split(byte[] i) {
        return new ExtendedKey(Arrays.copyOfRange(i, 0, KEY_BYTES), Arrays.copyOfRange(i, KEY_BYTES, 2 * KEY_BYTES));
    }

    /** The key itself, lent for the call: callers must not keep or modify it. */
    byte[] key() {
        return key;
    }

    /** The chain code, lent for the call: callers must not keep or modify it. */
    byte[] chainCode() {
        return chainCode;
    }

    SecretBytes privateKey() {
        return SecretBytes.copyOf(key);
    }

    @Override
    public void close() {
        Arrays.fill(key, (byte) 0);
        Arrays.fill(chainCode, (byte) 0);
    }
}
