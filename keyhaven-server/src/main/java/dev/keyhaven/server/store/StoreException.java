package dev.keyhaven.server.store;

/** A database failure the caller cannot fix (reported as an internal error). */
final class StoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
