package dev.keyhaven.server.http;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.task.InterruptableTask;
import io.helidon.http.DirectHandler;
import io.helidon.http.RequestException;
import io.helidon.http.Status;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.ServerConnectionException;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.time.Duration;
import java.util.Optional;

/**
 * One client connection of a guarded listener: Helidon's HTTP/1 connection, plus the phase its current request is in
 * and when that phase began, which {@link ConnectionGuard}'s sweeper compares with the phase's deadline.
 *
 * <p>The phases: waiting for a request (idle), reading its head (from its first byte to the end of the headers),
 * reading its body (until the handler has all of it), handling it, and closing (a deadline passed). Only one party
 * may write to the socket at a time, and the phase says who: the sweeper answers 408 only after moving a request
 * that is still being read to closing, and Helidon writes a response only after {@link #responding} has moved it
 * out of reading; both happen under this object's lock, so exactly one of them wins.
 */
final class GuardedConnection implements ServerConnection, InterruptableTask<Void> {
    /** The connection whose request the current thread handles (Helidon runs HTTP/1 handlers on it). */
    private static final ScopedValue<GuardedConnection> CURRENT = ScopedValue.newInstance();

    /** Raw bytes a request head may take; Helidon's own limits (4 KiB request line, 16 KiB headers) stop it first. */
    private static final long HEAD_BYTES = 64 * 1024;
    /** How long a 408 may take to be written before the socket is closed under it. */
    private static final Duration CLOSING_GRACE = Duration.ofSeconds(2);

    enum Phase {
        AWAITING_REQUEST,
        READING_HEAD,
        READING_BODY,
        HANDLING,
        CLOSING
    }

    private final ConnectionGuard guard;
    private final HelidonSocket socket;
    private final ServerConnection delegate;
    private Phase phase = Phase.AWAITING_REQUEST;
    private long since = System.nanoTime();
    private long rawBytes;
    private boolean closeRequested;
    private boolean socketClosed;

    GuardedConnection(ConnectionGuard guard, ConnectionContext context, ServerConnectionSelector http1) {
        this.guard = guard;
        this.socket = context.serverSocket();
        this.delegate = http1.connection(new GuardedContext(context, this));
    }

    /** The connection the current thread is handling a request of, if any. */
    static Optional<GuardedConnection> current() {
        return CURRENT.isBound() ? Optional.of(CURRENT.get()) : Optional.empty();
    }

    @Override
    public void handle(Limit limit) throws InterruptedException {
        guard.opened(this);
        try {
            ScopedValue.where(CURRENT, this).call(() -> {
                delegate.handle(limit);
                return null;
            });
        } finally {
            guard.closed(this);
        }
    }

    @Override
    public Duration idleTime() {
        return delegate.idleTime();
    }

    @Override
    public void close(boolean interrupt) {
        delegate.close(interrupt);
    }

    @Override
    public boolean canInterrupt() {
        return delegate instanceof InterruptableTask<?> task && task.canInterrupt();
    }

    /** Bytes were read from the socket: a request's first byte starts its head; heads and bodies are bounded. */
    synchronized void bytesArrived(int count) {
        switch (phase) {
            case AWAITING_REQUEST -> {
                enter(Phase.READING_HEAD);
                rawBytes = count;
            }
            case READING_HEAD -> count(count, HEAD_BYTES);
            case READING_BODY -> count(count, guard.bodyByteLimit());
            case HANDLING -> {
                // The handler has its body; whatever comes now belongs to the next request, counted when it starts.
            }
            case CLOSING ->
                throw new ServerConnectionException(
                        "connection closed by its deadline", new IllegalStateException("closing"));
        }
    }

    /** Helidon parsed a request line. A pipelined request may have been read with the previous one. */
    synchronized void requestLineRead() {
        if (phase == Phase.AWAITING_REQUEST) {
            enter(Phase.READING_HEAD);
        }
    }

    /**
     * Helidon parsed the headers: the body's deadline starts, or, without a body, the request is the handler's.
     *
     * @param closeRequested the request said {@code Connection: close}
     */
    synchronized void headersRead(boolean hasBody, boolean closeRequested) {
        requireOpen();
        enter(hasBody ? Phase.READING_BODY : Phase.HANDLING);
        this.closeRequested = closeRequested;
    }

    /**
     * The handler has read the whole body.
     *
     * @throws ConnectionAbandoned when the body's deadline passed first (the 408 is already on its way)
     */
    synchronized void bodyReceived() {
        if (phase == Phase.CLOSING) {
            throw ConnectionAbandoned.deadlinePassed();
        }
        if (phase == Phase.READING_BODY) {
            enter(Phase.HANDLING);
        }
    }

    /** Whether a deadline closed (or is closing) this connection. */
    synchronized boolean closedByDeadline() {
        return phase == Phase.CLOSING;
    }

    /**
     * Helidon is about to write a response: from now on the connection is idle. When the request or the response
     * says {@code Connection: close}, the connection ends once the response is written: Helidon 4.5 sends the header
     * but goes on reading requests.
     *
     * @param closeAfter the response says {@code Connection: close} (Helidon adds the header for a request that
     *        asked only after this is called)
     */
    void responding(boolean closeAfter) {
        boolean close;
        synchronized (this) {
            requireOpen();
            // Before the headers were read, the response is Helidon's answer to a malformed head, after which it
            // closes the connection itself; closing it here would interrupt the very write of that answer.
            boolean routed = phase == Phase.READING_BODY || phase == Phase.HANDLING;
            close = routed && (closeAfter || closeRequested);
            enter(Phase.AWAITING_REQUEST);
            closeRequested = false;
        }
        if (close) {
            // Ends Helidon's request loop after this response; it does not interrupt a connection that is handling.
            delegate.close(false);
        }
    }

    /** Called by the sweeper: acts on a passed deadline. */
    void checkDeadline(long now) {
        Runnable action = null;
        synchronized (this) {
            long elapsed = now - since;
            switch (phase) {
                case AWAITING_REQUEST -> {
                    if (elapsed > guard.limits().idleTimeout().toNanos()) {
                        enter(Phase.CLOSING);
                        action = this::closeSocket;
                    }
                }
                case READING_HEAD -> {
                    if (elapsed > guard.limits().headerTimeout().toNanos()) {
                        enter(Phase.CLOSING);
                        action = () ->
                                answerTimeout("request headers", guard.limits().headerTimeout());
                    }
                }
                case READING_BODY -> {
                    if (elapsed > guard.limits().bodyTimeout().toNanos()) {
                        enter(Phase.CLOSING);
                        action = () ->
                                answerTimeout("request body", guard.limits().bodyTimeout());
                    }
                }
                case HANDLING -> {
                    // Handling has no deadline of its own here: the database and outbound calls bound it.
                }
                case CLOSING -> {
                    if (elapsed > CLOSING_GRACE.toNanos() && !socketClosed) {
                        action = this::closeSocket;
                    }
                }
            }
        }
        if (action != null) {
            // Writing may block on a client that does not read; the sweeper must not.
            Thread.ofVirtual().name("keyhaven-connection-deadline").start(action);
        }
    }

    private void answerTimeout(String what, Duration timeout) {
        guard.timedOut(what);
        try {
            socket.write(BufferData.create(
                    guard.timeoutResponse(what + " not received within " + timeout.toSeconds() + " s")));
        } catch (RuntimeException clientGone) {
            // Nothing more can be told to a client whose socket fails.
        } finally {
            closeSocket();
        }
    }

    private void closeSocket() {
        synchronized (this) {
            socketClosed = true;
        }
        try {
            socket.close();
        } catch (RuntimeException alreadyClosed) {
            // Closed by the client or by Helidon meanwhile: the goal is reached.
        }
    }

    private void count(int count, long limit) {
        rawBytes += count;
        if (rawBytes > limit) {
            throw RequestException.builder()
                    .type(DirectHandler.EventType.PAYLOAD_TOO_LARGE)
                    .status(Status.REQUEST_ENTITY_TOO_LARGE_413)
                    .setKeepAlive(false)
                    .message("request is larger than allowed")
                    .build();
        }
    }

    private void requireOpen() {
        if (phase == Phase.CLOSING) {
            throw new ServerConnectionException(
                    "connection closed by its deadline", new IllegalStateException("closing"));
        }
    }

    private void enter(Phase next) {
        phase = next;
        since = System.nanoTime();
        rawBytes = 0;
    }
}
