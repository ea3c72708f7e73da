package dev.keyhaven.crypto;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Function;

/**
 * Key material held in memory. Anyone may create, hold, pass on, compare ({@link #sameAs}) and wipe one; reading it
 * takes a {@link SecretKeyAccess}, which only {@code keyhaven-crypto} and the server's {@code custody} may obtain (a
 * build rule, like Tink's {@code InsecureSecretKeyAccess}). Its {@code toString} is redacted and its {@code equals}
 * and {@code hashCode} are identity, so nothing leaks or compares it by accident; {@link #close()} wipes it.
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

    /**
     * Lends the live bytes to {@code use}, for code holding the {@link SecretKeyAccess} token. The function must not
     * keep a reference to the array beyond the call.
     */
    public <T> T apply(SecretKeyAccess access, Function<byte[], T> use) {
        Objects.requireNonNull(access, "reading key material takes SecretKeyAccess");
        if (wiped) {
            throw new IllegalStateException("secret already wiped");
        }
        return use.apply(bytes);
    }

    /** Compares in constant time with respect to the content. */
    public boolean sameAs(SecretBytes other) {
        SecretKeyAccess access = SecretKeyAccess.get();
        return other.apply(access, o -> apply(access, b -> MessageDigest.isEqual(b, o)));
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
