package dev.keyhaven.server.custody;

import dev.keyhaven.crypto.SecretBytes;

/**
 * The key-encryption key. It wraps and unwraps data keys and nothing else, so where it lives (a file, an HSM token)
 * costs a round trip only when a data key is first needed. Implementations never hand out the KEK itself.
 */
public interface Kek extends AutoCloseable {

    /** Where this KEK lives, without any secret: what {@code kek rotate} records so running servers can follow. */
    KekLocator locator();

    /**
     * Encrypts {@code dataKey} bound to {@code aad} (AES-256-GCM). The result is opaque and opens only with this KEK
     * and the same {@code aad}. The data key stays the caller's to close.
     */
    byte[] wrap(SecretBytes dataKey, byte[] aad);

    /**
     * Opens what {@link #wrap} made; the caller closes the result.
     *
     * @throws CustodyException when {@code wrapped} was not made by this KEK for this {@code aad}
     */
    SecretBytes unwrap(byte[] wrapped, byte[] aad);

    /** Releases what the KEK holds (a token session); the KEK cannot be used afterwards. */
    @Override
    void close();
}
