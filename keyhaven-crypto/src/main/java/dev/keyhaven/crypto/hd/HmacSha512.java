package dev.keyhaven.crypto.hd;

import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA512 from the JDK, whose SHA-512 is a hardware intrinsic. A {@link Mac} is not thread-safe, so each
 * derivation makes its own and closes it when done.
 */
final class HmacSha512 implements AutoCloseable {
    private static final String ALGORITHM = "HmacSHA512";

    private final Mac mac;

    HmacSha512() {
        try {
            mac = Mac.getInstance(ALGORITHM);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK has " + ALGORITHM, e);
        }
    }

    /** HMAC-SHA512(key, data) as a fresh 64-byte array, which the caller wipes. */
    byte[] compute(byte[] key, byte[] data) {
        init(key);
        return mac.doFinal(data);
    }

    private void init(byte[] key) {
        try {
            mac.init(new SecretKeySpec(key, ALGORITHM));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " rejected a " + key.length + "-byte key", e);
        }
    }

    /**
     * The Mac keeps pads computed from the last key, a secret chain code; keying it once more with a constant
     * overwrites them in place rather than leaving them for the garbage collector.
     */
    @Override
    public void close() {
        init(new byte[] {0});
    }
}
