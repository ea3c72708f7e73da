package dev.keyhaven.server.http;

/**
 * A listener could not start: its address is in use, not local, or not resolvable. The message is one line naming the
 * address, the port, the listener and the options that set them, meant to be shown to the operator as it is.
 */
public final class ListenerStartException extends RuntimeException {
    ListenerStartException(String message) {
        super(message);
    }
}
