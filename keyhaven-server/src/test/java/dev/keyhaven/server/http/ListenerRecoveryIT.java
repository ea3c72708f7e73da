package dev.keyhaven.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.server.testing.KeyhavenProcess;
import dev.keyhaven.server.testing.RawExchange;
import dev.keyhaven.server.testing.ServedJar;
import dev.keyhaven.server.testing.StoreKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The packaged jar with its file-descriptor limit lowered to 256 ({@code ulimit -n} in the child process), against
 * 300 idle connections: more than the process can hold. Once they close, the listener answers again. Before the fix
 * Helidon's accept loop died at the first {@code Too many open files} and the port refused everything for good.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class ListenerRecoveryIT {
    private static final int FILE_DESCRIPTORS = 256;
    private static final int IDLE_CONNECTIONS = 300;
    /** Bounds for waits that end when the server is done, never claims about its speed. */
    private static final Duration SETTLE_BOUND = Duration.ofSeconds(60);

    @Parameter
    StoreKind store;

    @TempDir
    Path directory;

    private ServedJar jar;

    @BeforeEach
    void prepare() {
        jar = ServedJar.in(store, directory);
    }

    @AfterEach
    void dropDatabase() {
        jar.close();
    }

    /** The default cap keeps client connections below the limit: the listener never runs out. */
    @Test
    void theDefaultCapKeepsTheListenerBelowTheLimit() {
        try (KeyhavenProcess server =
                KeyhavenProcess.serveWithFileLimit(FILE_DESCRIPTORS, jar.serveArguments(), Map.of())) {
            server.explainingFailures(() -> {
                try (IdleConnections _ = IdleConnections.open(server.port())) {
                    awaitSteadyDescriptors(server.process().pid());
                }
                assertAnswers(server.port());
                assertThat(server.stderr()).doesNotContain("Too many open files");
            });
        }
    }

    /**
     * A cap above what the limit allows (an operator's mistake, or descriptors taken by something else): accept
     * fails, Helidon gives the listener up, and the supervisor starts it again once descriptors are free, for each
     * listener.
     */
    @Test
    void aListenerThatRanOutOfDescriptorsAcceptsAgainOnceTheyAreFree() {
        int authProxyPort = freePort();
        Map<String, String> environment =
                Map.of("KEYHAVEN_MAX_CONNECTIONS", "1000", "KEYHAVEN_AUTH_PROXY_PORT", Integer.toString(authProxyPort));
        try (KeyhavenProcess server =
                KeyhavenProcess.serveWithFileLimit(FILE_DESCRIPTORS, jar.serveArguments(), environment)) {
            server.explainingFailures(() -> {
                Map<String, Integer> listeners = new LinkedHashMap<>();
                listeners.put("API", server.port());
                listeners.put("auth proxy", authProxyPort);
                listeners.forEach((name, port) -> {
                    try (IdleConnections idle = IdleConnections.open(port)) {
                        // Helidon gives up at the first accept that fails, and closes the connections it had.
                        awaitLogLine(server, "starting it again listener=\"" + name + "\"", idle);
                    }
                    assertAnswers(port);
                    assertThat(server.stderr())
                            .contains("the listener accepts connections again listener=\"" + name + "\"");
                });
            });
        }
    }

    /** More idle connections than the process can hold, closed together. */
    private static final class IdleConnections implements AutoCloseable {
        private final List<Socket> sockets = new ArrayList<>();
        private IOException stoppedBy;

        static IdleConnections open(int port) {
            IdleConnections idle = new IdleConnections();
            try {
                for (int i = 0; i < IDLE_CONNECTIONS; i++) {
                    Socket socket = new Socket();
                    idle.sockets.add(socket);
                    socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
                }
            } catch (IOException e) {
                // A listener that already gave up refuses the rest: it is exhausted either way.
                idle.stoppedBy = e;
            }
            return idle;
        }

        @Override
        public String toString() {
            return sockets.size() + " connections opened" + (stoppedBy == null ? "" : ", then " + stoppedBy);
        }

        @Override
        public void close() {
            for (Socket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // Closing is all that is wanted.
                }
            }
        }
    }

    /** A request on a new connection gets its answer, once the server has let the idle ones go. */
    private static void assertAnswers(int port) {
        long deadline = System.nanoTime() + SETTLE_BOUND.toNanos();
        AssertionError last = null;
        while (System.nanoTime() < deadline) {
            try (RawExchange exchange = RawExchange.open(port)) {
                // In two parts, so the server has to wait for bytes: the JDK's poller that parks a virtual thread on
                // a socket must have survived the exhaustion too.
                exchange.write("GET /health HTTP/1.1\r\n");
                pause();
                assertThat(exchange.write("Host: keyhaven\r\nConnection: close\r\n\r\n")
                                .read()
                                .status())
                        .isEqualTo(200);
                return;
            } catch (UncheckedIOException | AssertionError e) {
                last = new AssertionError("no answer on port " + port + ": " + e.getMessage(), e);
            }
            pause();
        }
        throw last;
    }

    /** Waits until a line of the server's log contains {@code text}. */
    private static void awaitLogLine(KeyhavenProcess server, String text, IdleConnections idle) {
        long deadline = System.nanoTime() + SETTLE_BOUND.toNanos();
        while (server.stderr().lines().noneMatch(line -> line.contains(text))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no log line with " + text + " within " + SETTLE_BOUND + " (" + idle + ")");
            }
            pause();
        }
    }

    /** Waits until the process's open descriptors have not changed for a second. */
    private static void awaitSteadyDescriptors(long pid) {
        Path descriptors = Path.of("/proc", Long.toString(pid), "fd");
        long deadline = System.nanoTime() + SETTLE_BOUND.toNanos();
        int previous = -1;
        int steadyFor = 0;
        while (steadyFor < 5 && System.nanoTime() < deadline) {
            int now = count(descriptors);
            steadyFor = now == previous ? steadyFor + 1 : 0;
            previous = now;
            pause();
        }
    }

    private static int count(Path directory) {
        try (Stream<Path> entries = Files.list(directory)) {
            return (int) entries.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void pause() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
