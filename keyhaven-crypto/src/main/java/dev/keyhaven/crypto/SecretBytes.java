package dev.keyhaven.crypto;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.function.Function;

/**
 * Key material held in memory. It has no {@code toString}, {@code equals} or {@code hashCode} that could leak or
 * compare it by accident, hands its bytes out only to a function, and is wiped by {@link #close()}.
 */
public final class SecretBytes implements AutoCloseable {
    private final byte[] bytes;
    private volatile boolean wiped;

    private SecretBytes(byte[] bytes) {
        this.bytes = bytes;
    }

    /** Takes ownership of {@code bytes}: the caller must not keep or reuse the array. */
    public static SecretBytes adopt(byte[] bytes) {
        return new SecretBytes(bytes);
    }

    /** Copies {@code bytes}; the caller stays responsible for wiping its own array. */
    public static SecretBytes copyOf(byte[] bytes) {
        return new SecretBytes(bytes.clone());
    }

    public int length() {
        return bytes.length;
    }

    /** Lends the bytes to {@code use}. The function must not keep a reference to the array beyond the call. */
    public <T> T apply(Function<byte[], T> use) {
        if (wiped) {
            throw new IllegalStateException("secret already wiped");
        }
        return use.apply(bytes);
    }

    /** Compares in constant time with respect to the content. */
    public boolean sameAs(SecretBytes other) {
        return other.apply(o -> apply(b -> MessageDigest.isEqual(b, o)));
    }

    @Override
    public void close() {
        wiped = true;
        Arrays.fill(bytes, (byte) 0);
    }

    @Override
    public String toString() {
        return "SecretBytes[redacted]";
    }
}
