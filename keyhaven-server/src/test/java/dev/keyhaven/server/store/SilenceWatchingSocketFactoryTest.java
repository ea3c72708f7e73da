package dev.keyhaven.server.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The watch itself, against a local peer instead of PostgreSQL: a read the peer never answers is cut once it has
 * waited longer than the limit, a read the peer answers is not, and every way of making a socket gives a watched one.
 */
class SilenceWatchingSocketFactoryTest {
    /** A read still blocked this long after its 300-ms limit was never cut. */
    private static final Duration NEVER_CUT = Duration.ofSeconds(30);

    private final List<Socket> accepted = new ArrayList<>();
    private ServerSocket peer;
    private Thread acceptor;

    @BeforeEach
    void listen() throws IOException {
        peer = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = Thread.ofPlatform().daemon().start(() -> {
            try {
                while (true) {
                    Socket socket = peer.accept();
                    synchronized (accepted) {
                        accepted.add(socket);
                    }
                }
            } catch (IOException closed) {
                // the test is over
            }
        });
    }

    @AfterEach
    void close() throws Exception {
        peer.close();
        acceptor.join();
        synchronized (accepted) {
            for (Socket socket : accepted) {
                socket.close();
            }
        }
    }

    @Test
    void aReadThePeerNeverAnswersIsCutAndTheSocketForgotten() throws IOException {
        SilenceWatchingSocketFactory factory = new SilenceWatchingSocketFactory("300");
        int before = SilenceWatchingSocketFactory.socketsWatched();
        try (Socket socket = factory.createSocket(InetAddress.getLoopbackAddress(), peer.getLocalPort())) {
            assertThat(SilenceWatchingSocketFactory.socketsWatched()).isEqualTo(before + 1);

            // Blocks until the watch closes the socket: without the watch this read would never end.
            CompletableFuture<Integer> read = CompletableFuture.supplyAsync(() -> {
                try {
                    return socket.getInputStream().read();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            assertThatThrownBy(() -> read.get(NEVER_CUT.toSeconds(), TimeUnit.SECONDS))
                    .as("the read, which the watch must cut well within " + NEVER_CUT)
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(UncheckedIOException.class)
                    .cause()
                    .isInstanceOf(SocketException.class)
                    .hasMessage("Socket closed");
            assertThat(socket.isClosed()).isTrue();
            assertThat(SilenceWatchingSocketFactory.socketsWatched()).isEqualTo(before);
        }
    }

    @Test
    void aReadThePeerAnswersIsNotCut() throws Exception {
        SilenceWatchingSocketFactory factory = new SilenceWatchingSocketFactory("60000");
        try (Socket socket = factory.createSocket("127.0.0.1", peer.getLocalPort())) {
            Socket other = acceptedSocket();
            try (OutputStream out = other.getOutputStream()) {
                out.write("answer".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = socket.getInputStream();
                assertThat(new String(in.readNBytes(6), StandardCharsets.US_ASCII))
                        .isEqualTo("answer");
                assertThat(socket.isClosed()).isFalse();
            }
        }
    }

    @Test
    void everyWayOfMakingASocketIsWatched() throws IOException {
        SilenceWatchingSocketFactory factory = new SilenceWatchingSocketFactory("60000");
        InetAddress loopback = InetAddress.getLoopbackAddress();
        int before = SilenceWatchingSocketFactory.socketsWatched();
        try (Socket unconnected = factory.createSocket();
                Socket byName = factory.createSocket("127.0.0.1", peer.getLocalPort());
                Socket byNameFrom = factory.createSocket("127.0.0.1", peer.getLocalPort(), loopback, 0);
                Socket byAddress = factory.createSocket(loopback, peer.getLocalPort());
                Socket byAddressFrom = factory.createSocket(loopback, peer.getLocalPort(), loopback, 0)) {
            assertThat(unconnected.isConnected()).isFalse();
            assertThat(List.of(byName, byNameFrom, byAddress, byAddressFrom)).allMatch(Socket::isConnected);
            assertThat(SilenceWatchingSocketFactory.socketsWatched()).isEqualTo(before + 5);
        }
        assertThat(SilenceWatchingSocketFactory.socketsWatched()).isEqualTo(before);
    }

    @Test
    void aSocketThatCannotConnectIsClosedAndForgotten() throws IOException {
        SilenceWatchingSocketFactory factory = new SilenceWatchingSocketFactory("60000");
        // A port held by a socket that is bound but neither listens nor connects: a connection to it is refused. A
        // port merely closed could be taken meanwhile, or picked as the connecting socket's own (a self-connect).
        try (Socket holder = new Socket()) {
            holder.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int before = SilenceWatchingSocketFactory.socketsWatched();
            assertThatThrownBy(() -> factory.createSocket("127.0.0.1", holder.getLocalPort()))
                    .isInstanceOf(IOException.class);
            assertThat(SilenceWatchingSocketFactory.socketsWatched()).isEqualTo(before);
        }
    }

    private Socket acceptedSocket() throws InterruptedException {
        while (true) {
            synchronized (accepted) {
                if (!accepted.isEmpty()) {
                    return accepted.getFirst();
                }
            }
            Thread.sleep(10);
        }
    }
}
