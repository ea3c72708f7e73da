package dev.keyhaven.server.http;

import java.time.Duration;

/**
 * What a listener allows one client connection. Each phase of a request has its own deadline, so a client that
 * connects and sends nothing, trickles a request head, or stops in the middle of a body holds its connection (and a
 * file descriptor) for a bounded time only.
 *
 * @param idleTimeout how long a connection may wait for the first byte of its next request: after it is accepted, and
 *        after each response; then it is closed without an answer
 * @param headerTimeout how long the request line and headers may take, from their first byte; then 408
 * @param bodyTimeout how long the body may take, from the end of the headers; then 408
 * @param maxConnections connections each listener holds open at once; the next ones wait in the kernel's accept queue
 *        until one closes. 0 means "derive from the file-descriptor limit", which the application resolves before a
 *        listener starts
 */
public record ConnectionLimits(Duration idleTimeout, Duration headerTimeout, Duration bodyTimeout, int maxConnections) {

    /** 60 s idle (longer than the JDK client's 30 s keep-alive, so clients close first), 10 s head, 30 s body. */
    public static final ConnectionLimits DEFAULT =
            new ConnectionLimits(Duration.ofSeconds(60), Duration.ofSeconds(10), Duration.ofSeconds(30), 0);

    public ConnectionLimits {
        for (Duration timeout : new Duration[] {idleTimeout, headerTimeout, bodyTimeout}) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("connection timeouts must be positive: " + timeout);
            }
        }
        if (maxConnections < 0) {
            throw new IllegalArgumentException("maxConnections must be 0 (derived) or more: " + maxConnections);
        }
    }

    public ConnectionLimits withMaxConnections(int connections) {
        return new ConnectionLimits(idleTimeout, headerTimeout, bodyTimeout, connections);
    }

    public ConnectionLimits withTimeouts(Duration idle, Duration header, Duration body) {
        return new ConnectionLimits(idle, header, body, maxConnections);
    }
}
