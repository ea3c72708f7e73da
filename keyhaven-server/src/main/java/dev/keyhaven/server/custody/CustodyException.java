package dev.keyhaven.server.custody;

/**
 * A sealed secret that does not open (wrong KEK, a ciphertext moved to another row, corruption) or a KEK that cannot
 * be used. Messages name the resource, never key material.
 */
public final class CustodyException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CustodyException(String message) {
        super(message);
    }

    public CustodyException(String message, Throwable cause) {
        super(message, cause);
    }
}
