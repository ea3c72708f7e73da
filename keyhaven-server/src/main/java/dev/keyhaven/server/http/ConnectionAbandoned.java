package dev.keyhaven.server.http;

import io.helidon.webserver.CloseConnectionException;

/**
 * The request's connection is gone or was closed by its deadline, so no response can (or may) be written: a handler
 * throws this instead of answering, and Helidon closes the connection without logging more than a trace.
 */
final class ConnectionAbandoned extends CloseConnectionException {
    /** The status the request log shows: 408 for a deadline, 499 (as nginx logs it) for a client that went away. */
    private final int loggedStatus;

    private ConnectionAbandoned(String message, int loggedStatus) {
        super(message);
        this.loggedStatus = loggedStatus;
    }

    static ConnectionAbandoned deadlinePassed() {
        return new ConnectionAbandoned("the request body's deadline passed", 408);
    }

    static ConnectionAbandoned clientGone() {
        return new ConnectionAbandoned("the client's connection failed while it sent the body", 499);
    }

    int loggedStatus() {
        return loggedStatus;
    }
}
