package dev.keyhaven.server.state;

/**
 * The organization changed while a request ran on remembered lookups: nothing was written, and the request starts
 * again from fresh data.
 */
public final class StaleStateException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StaleStateException(String organizationId) {
        super("organization " + organizationId + " changed while the request ran", null, false, false);
    }
}
