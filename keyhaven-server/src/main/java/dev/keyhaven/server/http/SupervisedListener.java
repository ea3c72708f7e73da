package dev.keyhaven.server.http;

import io.helidon.common.socket.SocketOptions;
import io.helidon.http.DirectHandler;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.DirectHandlers;
import io.helidon.webserver.http.HttpRouting;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HTTP listener (the API's or the auth proxy's) that keeps listening.
 *
 * <p>Helidon 4.5's accept loop ({@code ServerListener.listen}) treats any failure of {@code accept()} as the end of the
 * listener: at the file-descriptor limit ({@code IOException: Too many open files}) it logs the error, closes the
 * server socket and every open connection, and its thread then waits for itself for ever ({@code stop()} joins the
 * future that only the end of that same thread completes). The process, the other listener and {@code /health} stay
 * up while the port refuses everything, and nothing in Helidon notices: {@code WebServer.isRunning()} stays true.
 * Two defences, without patching Helidon:
 * <ul>
 *   <li>a cap ({@code maxTcpConnections}): Helidon takes a permit <em>before</em> each {@code accept()}, so past the
 *       cap connections wait in the kernel's queue instead of costing descriptors. The default cap leaves room below
 *       the process's limit for everything else (see {@code ConnectionBudget}).</li>
 *   <li>a supervisor for whatever exhausts descriptors anyway (outbound calls, an operator's cap above the limit):
 *       once a second it tries to bind the listener's own address. While the listener lives that fails (the port is
 *       in use, by it); when the bind succeeds the listener is dead, and a new Helidon server is started on the same
 *       port, with the same routes and limits. A bind that fails for lack of descriptors proves nothing and is tried
 *       again, so the listener comes back once descriptors are free.</li>
 * </ul>
 * Each restart leaves Helidon's dead listener thread blocked for good: one parked thread per exhaustion, which the cap
 * makes rare.
 */
final class SupervisedListener implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SupervisedListener.class);
    private static final Duration CHECK_EVERY = Duration.ofSeconds(1);

    /**
     * What to listen with.
     *
     * @param name the listener's name in messages ("API", "auth proxy")
     * @param options the options that set its address, for the operator reading a bind failure
     */
    record Definition(
            String name,
            String options,
            String host,
            int port,
            Duration shutdownGrace,
            int maxBodyBytes,
            ConnectionLimits limits,
            ErrorBodies errors,
            HttpRouting.Builder routing) {}

    private final Definition definition;
    private final ConnectionGuard guard;
    private final InetSocketAddress address;
    private final Thread supervisor;
    private volatile WebServer server;
    private boolean closing;

    private SupervisedListener(Definition definition, ConnectionGuard guard, WebServer server) {
        this.definition = definition;
        this.guard = guard;
        this.server = server;
        this.address = new InetSocketAddress(definition.host(), server.port());
        this.supervisor = Thread.ofVirtual()
                .name("keyhaven-listener-supervisor-" + definition.name())
                .start(this::supervise);
    }

    /**
     * Starts listening.
     *
     * @throws ListenerStartException when the address cannot be listened on
     */
    static SupervisedListener start(Definition definition) {
        VirtualThreadIo.prepare();
        InetSocketAddress wanted = new InetSocketAddress(definition.host(), definition.port());
        if (wanted.isUnresolved()) {
            throw new ListenerStartException(cannotListen(definition, definition.port(), "unknown host"));
        }
        // Checked first so the operator gets one line, not Helidon's logged stack trace (Helidon reports a failed
        // bind only in its log and returns a server that is not running). Port 0 checks the address.
        bindFailure(wanted).ifPresent(e -> {
            throw new ListenerStartException(cannotListen(definition, definition.port(), reason(e)));
        });
        ConnectionGuard guard = new ConnectionGuard(
                definition.name(), definition.limits(), definition.maxBodyBytes(), definition.errors());
        WebServer server = build(definition, guard, definition.port()).start();
        if (!server.isRunning()) {
            guard.close();
            String why = bindFailure(wanted).map(SupervisedListener::reason).orElse("the server did not start");
            throw new ListenerStartException(cannotListen(definition, definition.port(), why));
        }
        return new SupervisedListener(definition, guard, server);
    }

    int port() {
        return address.getPort();
    }

    /** Stops accepting, lets requests in flight finish within the grace period, and closes every connection. */
    @Override
    public void close() {
        synchronized (this) {
            closing = true;
        }
        supervisor.interrupt();
        try {
            supervisor.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        server.stop();
        guard.close();
    }

    private static WebServer build(Definition definition, ConnectionGuard guard, int port) {
        JsonDirectHandler refusals = new JsonDirectHandler(definition.errors());
        DirectHandlers.Builder directHandlers = DirectHandlers.builder();
        for (DirectHandler.EventType type : DirectHandler.EventType.values()) {
            directHandlers.addHandler(type, refusals);
        }
        return WebServer.builder()
                .host(definition.host())
                .port(port)
                .shutdownGracePeriod(definition.shutdownGrace())
                // The application orders shutdown: the listener drains, then the database closes. Helidon's own
                // JVM hook would stop the listener concurrently with that sequence.
                .shutdownHook(false)
                // Without TCP_NODELAY a response larger than one segment waits for the client's delayed ACK: a 40 ms
                // stall per request (BENCHMARKS.md).
                .connectionOptions(SocketOptions.builder().tcpNoDelay(true).build())
                .maxTcpConnections(definition.limits().maxConnections())
                // HTTP/1.1 only, through the guard: no connection escapes its deadlines.
                .protocolsDiscoverServices(false)
                .addConnectionSelector(guard)
                .directHandlers(directHandlers.build())
                // Each server builds its own routing from the same registrations (Helidon replays them).
                .routing(definition.routing())
                .build();
    }

    private void supervise() {
        while (true) {
            try {
                Thread.sleep(CHECK_EVERY);
            } catch (InterruptedException e) {
                return;
            }
            if (bindFailure(address).isEmpty()) {
                restart();
            }
        }
    }

    private void restart() {
        LOG.atWarn()
                .addKeyValue("listener", definition.name())
                .addKeyValue("port", address.getPort())
                .log("the listener stopped accepting connections (Helidon gives up when accept fails, e.g. at the "
                        + "file-descriptor limit); starting it again");
        WebServer fresh;
        try {
            fresh = build(definition, guard, address.getPort()).start();
        } catch (RuntimeException e) {
            LOG.atWarn()
                    .addKeyValue("listener", definition.name())
                    .addKeyValue("error", e.getClass().getSimpleName())
                    .log("the listener could not start again; retrying");
            return;
        }
        if (!fresh.isRunning()) {
            LOG.atWarn().addKeyValue("listener", definition.name()).log("the listener could not start again; retrying");
            return;
        }
        WebServer dead;
        synchronized (this) {
            if (closing) {
                fresh.stop();
                return;
            }
            dead = server;
            server = fresh;
        }
        dead.stop();
        LOG.atInfo()
                .addKeyValue("listener", definition.name())
                .addKeyValue("port", address.getPort())
                .log("the listener accepts connections again");
    }

    /** Why {@code address} cannot be bound now, or empty when it can (the probe is closed at once). */
    private static Optional<IOException> bindFailure(InetSocketAddress address) {
        try (ServerSocketChannel probe = ServerSocketChannel.open()) {
            probe.bind(address);
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of(e);
        }
    }

    private static String reason(IOException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static String cannotListen(Definition definition, int port, String reason) {
        String host = definition.host().contains(":") ? "[" + definition.host() + "]" : definition.host();
        return "cannot listen on " + host + ":" + port + " for the " + definition.name() + " (" + definition.options()
                + "): " + reason;
    }
}
