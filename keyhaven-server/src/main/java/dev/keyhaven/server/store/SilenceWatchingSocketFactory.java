package dev.keyhaven.server.store;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.SocketFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PostgreSQL's sockets, each watched while a read waits for the server: a socket whose server has stayed silent for
 * longer than the limit during a read (a network partition; a stopped server refuses at once) is closed, and its
 * statement fails as a lost connection (503, {@link DatabaseOutage}) instead of hanging. The limit bounds one read,
 * as pgjdbc's {@code socketTimeout} would, so a long statement that answers in time is never cut.
 *
 * <p>Why not {@code socketTimeout}: it makes every read a timed wait, which on a virtual thread is a timer scheduled
 * and cancelled per read on the JDK's delay scheduler, waking a carrier twice: 13.5–14.4 % of the server's samples
 * for a query on PostgreSQL (BENCHMARKS.md, "A silent PostgreSQL without a timer per read"). Here a read costs a clock
 * read and two volatile writes, and one thread of the JVM looks at the reads in progress a few times a second.
 *
 * <p>pgjdbc makes its socket factory from a class name ({@code socketFactory}) for each connection, with the limit in
 * milliseconds as its argument ({@code socketFactoryArg}); the watching thread is therefore the JVM's, shared by every
 * pool, and started with the first socket.
 */
public final class SilenceWatchingSocketFactory extends SocketFactory {
    private static final Logger LOG = LoggerFactory.getLogger(SilenceWatchingSocketFactory.class);
    /** How often the reads in progress are looked at: a silent server is noticed at most this late. */
    private static final Duration LOOK_EVERY = Duration.ofMillis(250);

    private static final Watch WATCH = new Watch();

    private final long limitNanos;

    /**
     * @param limitMillis how long, in milliseconds, one read may wait for the server (pgjdbc's {@code
     *     socketFactoryArg})
     */
    public SilenceWatchingSocketFactory(String limitMillis) {
        long millis;
        try {
            millis = Long.parseLong(limitMillis);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the silence limit must be a number of milliseconds", e);
        }
        if (millis <= 0) {
            throw new IllegalArgumentException("the silence limit must be positive");
        }
        this.limitNanos = Duration.ofMillis(millis).toNanos();
    }

    /** pgjdbc's own call: an unconnected socket, which it connects with its connect timeout. */
    @Override
    public Socket createSocket() {
        WatchedSocket socket = new WatchedSocket(limitNanos);
        WATCH.add(socket);
        return socket;
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return connected(new InetSocketAddress(host, port), new InetSocketAddress(localHost, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        return connected(new InetSocketAddress(address, port), new InetSocketAddress(localAddress, localPort));
    }

    private Socket connected(InetSocketAddress remote, InetSocketAddress... local) throws IOException {
        Socket socket = createSocket();
        try {
            for (InetSocketAddress bound : local) {
                socket.bind(bound);
            }
            socket.connect(remote);
            return socket;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** How many open sockets this JVM watches: a closed one is forgotten (for tests). */
    static int socketsWatched() {
        return WATCH.sockets.size();
    }

    /** A socket whose reads say when they began waiting, and which the watch may close. */
    private static final class WatchedSocket extends Socket {
        /** What {@link #readingSince} holds when no read waits. */
        private static final long NOT_READING = Long.MIN_VALUE;

        private final long limitNanos;
        private volatile long readingSince = NOT_READING;
        private InputStream input;

        WatchedSocket(long limitNanos) {
            this.limitNanos = limitNanos;
        }

        @Override
        public synchronized InputStream getInputStream() throws IOException {
            if (input == null) {
                input = new WatchedInput(super.getInputStream(), this);
            }
            return input;
        }

        @Override
        public void close() throws IOException {
            WATCH.sockets.remove(this);
            super.close();
        }

        /** How long the read in progress has waited at {@code now}, or -1 when none waits. */
        long waitedNanos(long now) {
            long since = readingSince;
            return since == NOT_READING ? -1 : now - since;
        }
    }

    /** The socket's input, telling the socket when a read begins and ends. */
    private static final class WatchedInput extends FilterInputStream {
        private final WatchedSocket socket;

        WatchedInput(InputStream in, WatchedSocket socket) {
            super(in);
            this.socket = socket;
        }

        @Override
        public int read() throws IOException {
            socket.readingSince = System.nanoTime();
            try {
                return in.read();
            } finally {
                socket.readingSince = WatchedSocket.NOT_READING;
            }
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            socket.readingSince = System.nanoTime();
            try {
                return in.read(buffer, offset, length);
            } finally {
                socket.readingSince = WatchedSocket.NOT_READING;
            }
        }
    }

    /** The JVM's sockets to PostgreSQL, and the thread that closes those whose server stays silent. */
    private static final class Watch {
        private final Set<WatchedSocket> sockets = ConcurrentHashMap.newKeySet();
        private Thread thread;

        synchronized void add(WatchedSocket socket) {
            sockets.add(socket);
            if (thread == null) {
                thread = Thread.ofPlatform()
                        .name("keyhaven-postgresql-silence-watch")
                        .daemon()
                        .start(this::run);
            }
        }

        private void run() {
            while (true) {
                try {
                    Thread.sleep(LOOK_EVERY);
                } catch (InterruptedException e) {
                    return;
                }
                try {
                    lookAtReads();
                } catch (RuntimeException e) {
                    // A watch that stopped would leave a partition to hang requests: it goes on.
                    LOG.error("watching PostgreSQL's connections for silence failed once", e);
                }
            }
        }

        private void lookAtReads() {
            long now = System.nanoTime();
            for (WatchedSocket socket : sockets) {
                long waited = socket.waitedNanos(now);
                if (waited > socket.limitNanos) {
                    cut(socket, waited);
                }
            }
        }

        private void cut(WatchedSocket socket, long waitedNanos) {
            LOG.warn(
                    "closing a connection to PostgreSQL at {}: a read has waited {} ms for the server (the limit is {}"
                            + " ms); its statement fails as a lost connection",
                    socket.getRemoteSocketAddress(),
                    Duration.ofNanos(waitedNanos).toMillis(),
                    Duration.ofNanos(socket.limitNanos).toMillis());
            try {
                socket.close();
            } catch (IOException | RuntimeException e) {
                sockets.remove(socket);
                LOG.warn("closing the silent connection failed: {}", e.toString());
            }
        }
    }
}
