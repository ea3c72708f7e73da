package dev.keyhaven.server.http;

import dev.keyhaven.server.api.ApiException;
import io.helidon.common.buffers.BufferData;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionListener;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deadlines for every connection of one listener. Helidon 4.5 has none that work: its idle timeout closes only
 * connections waiting for a request line (after 5 minutes, checked every 2), its read timeout is never applied to
 * server sockets, and a request head or body that stops half-way holds its connection for ever. So the listener's only
 * connection selector is this one: it hands each connection to Helidon's HTTP/1 implementation, wrapped in a
 * {@link GuardedConnection} that tracks its request's phase, and a sweeper closes the connections whose phase lasted
 * too long (see {@link ConnectionLimits}).
 */
final class ConnectionGuard implements ServerConnectionSelector, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionGuard.class);

    private final String listener;
    private final ConnectionLimits limits;
    private final long bodyByteLimit;
    private final ErrorBodies errors;
    private final ServerConnectionSelector http1;
    private final Set<GuardedConnection> open = ConcurrentHashMap.newKeySet();
    private final Thread sweeper;
    private volatile boolean stopped;

    /**
     * @param maxBodyBytes the largest body a handler accepts; the raw bytes of a body (chunk framing included) are
     *        bounded at twice that plus 64 KiB, which no honest chunked encoding reaches
     */
    ConnectionGuard(String listener, ConnectionLimits limits, int maxBodyBytes, ErrorBodies errors) {
        this.listener = listener;
        this.limits = limits;
        this.bodyByteLimit = 2L * maxBodyBytes + 64 * 1024;
        this.errors = errors;
        this.http1 = Http1ConnectionSelector.builder()
                .config(Http1Config.builder()
                        .addReceiveListener(new Received())
                        .addSendListener(new Sent())
                        .build())
                .build();
        this.sweeper = Thread.ofVirtual()
                .name("keyhaven-connection-sweeper-" + listener)
                .start(this::sweep);
    }

    ConnectionLimits limits() {
        return limits;
    }

    long bodyByteLimit() {
        return bodyByteLimit;
    }

    void opened(GuardedConnection connection) {
        open.add(connection);
    }

    void closed(GuardedConnection connection) {
        open.remove(connection);
    }

    void timedOut(String what) {
        LOG.atInfo()
                .addKeyValue("listener", listener)
                .addKeyValue("waitingFor", what)
                .log("request timed out: 408, connection closed");
    }

    /** A whole HTTP/1.1 408 response, written by the sweeper itself (the connection's thread is blocked reading). */
    byte[] timeoutResponse(String message) {
        byte[] body = errors.render(ApiException.badRequest(message));
        ByteArrayOutputStream response = new ByteArrayOutputStream();
        response.writeBytes(("HTTP/1.1 408 Request Timeout\r\nContent-Type: " + ApiEndpoint.JSON
                        + "\r\nContent-Length: " + body.length + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        response.writeBytes(body);
        return response.toByteArray();
    }

    @Override
    public int bytesToIdentifyConnection() {
        return http1.bytesToIdentifyConnection();
    }

    @Override
    public Support supports(BufferData data) {
        return http1.supports(data);
    }

    @Override
    public Set<String> supportedApplicationProtocols() {
        return http1.supportedApplicationProtocols();
    }

    @Override
    public ServerConnection connection(ConnectionContext ctx) {
        return new GuardedConnection(this, ctx, http1);
    }

    @Override
    public void close() {
        stopped = true;
        sweeper.interrupt();
    }

    private void sweep() {
        Duration shortest = limits.idleTimeout();
        for (Duration timeout : new Duration[] {limits.headerTimeout(), limits.bodyTimeout()}) {
            shortest = timeout.compareTo(shortest) < 0 ? timeout : shortest;
        }
        // A tenth of the shortest deadline, so each is kept to within 10 %, but no busier than 20 times a second.
        long tickMillis = Math.clamp(shortest.toMillis() / 10, 50, 1000);
        while (!stopped) {
            try {
                Thread.sleep(tickMillis);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (GuardedConnection connection : open) {
                connection.checkDeadline(now);
            }
        }
    }

    private static GuardedConnection of(ConnectionContext ctx) {
        return ((GuardedContext) ctx).connection();
    }

    /** Request lines and headers as Helidon parses them. */
    private static final class Received implements Http1ConnectionListener {
        @Override
        public void prologue(ConnectionContext ctx, HttpPrologue prologue) {
            of(ctx).requestLineRead();
        }

        @Override
        public void headers(ConnectionContext ctx, Headers headers) {
            of(ctx).headersRead(hasBody(headers), headers.containsToken(HeaderValues.CONNECTION_CLOSE));
        }

        private static boolean hasBody(Headers headers) {
            if (headers.contains(HeaderNames.TRANSFER_ENCODING)) {
                return true;
            }
            try {
                return headers.contentLength().orElse(0) > 0;
            } catch (RuntimeException malformed) {
                // Helidon refuses the framing next; until then the request counts as one with a body.
                return true;
            }
        }
    }

    /** Responses, just before Helidon writes them. */
    private static final class Sent implements Http1ConnectionListener {
        @Override
        public void headers(ConnectionContext ctx, Headers headers) {
            of(ctx).responding(headers.containsToken(HeaderValues.CONNECTION_CLOSE));
        }
    }
}
