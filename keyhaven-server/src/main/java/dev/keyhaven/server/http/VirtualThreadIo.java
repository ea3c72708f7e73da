package dev.keyhaven.server.http;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the JDK set up the poller that parks virtual threads on socket I/O before a listener accepts anything. The JDK
 * creates it (epoll descriptors) the first time a virtual thread waits for a socket; if that happens at the
 * file-descriptor limit, its class stays unusable for the life of the JVM ("Could not initialize class
 * sun.nio.ch.Poller") and every request that has to wait for bytes fails. Under a flood of connections, one of them is
 * that first wait, so one is made here at start, on a loopback socket pair.
 */
final class VirtualThreadIo {
    private static final Logger LOG = LoggerFactory.getLogger(VirtualThreadIo.class);
    private static final Duration BOUND = Duration.ofSeconds(5);
    private static final AtomicBoolean PREPARED = new AtomicBoolean();

    private VirtualThreadIo() {}

    static void prepare() {
        if (PREPARED.get()) {
            return;
        }
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ServerSocket server = new ServerSocket(0, 1, loopback);
                Socket client = new Socket(loopback, server.getLocalPort());
                Socket peer = server.accept()) {
            Thread reader = Thread.ofVirtual().name("keyhaven-io-poller-start").start(() -> {
                try {
                    client.getInputStream().read();
                } catch (IOException e) {
                    // Only the wait mattered.
                }
            });
            // The byte is sent only once the reader waits for it, parked by the poller.
            long deadline = System.nanoTime() + BOUND.toNanos();
            while (reader.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            peer.getOutputStream().write(1);
            PREPARED.set(reader.join(BOUND));
        } catch (IOException e) {
            LOG.atWarn().addKeyValue("error", e.toString()).log("could not prepare virtual-thread socket I/O at start");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
