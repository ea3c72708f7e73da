package dev.keyhaven.server.http;

import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.socket.PeerInfo;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.ListenerContext;
import io.helidon.webserver.ProxyProtocolData;
import io.helidon.webserver.Router;
import io.helidon.webserver.ServerConnectionException;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Helidon's connection context with two changes. The HTTP/1 connection writes through {@link WholeWrites} (one system
 * call per write instead of one per 8 KiB), and it reads the socket through a reader of our own, so every read passes
 * {@link GuardedConnection#bytesArrived}. That is how a request's first byte starts its header
 * deadline, and how the raw bytes of a body are bounded: Helidon reads a chunk-size line without any length limit
 * and buffers a whole chunk before handing it on, so without this a single request could fill the heap.
 */
final class GuardedContext implements ConnectionContext {
    private static final Logger LOG = LoggerFactory.getLogger(GuardedContext.class);

    private final ConnectionContext delegate;
    private final GuardedConnection connection;
    private final DataReader reader;
    private final DataWriter writer;

    GuardedContext(ConnectionContext delegate, GuardedConnection connection) {
        this.delegate = delegate;
        this.connection = connection;
        HelidonSocket socket = delegate.serverSocket();
        this.writer = WholeWrites.forSocket(socket, delegate.dataWriter());
        this.reader = DataReader.create(() -> {
            byte[] bytes;
            try {
                bytes = socket.get();
            } catch (UncheckedIOException e) {
                // What Helidon's own reader does: a socket that fails ends the connection quietly.
                throw new ServerConnectionException("failed to read from the socket", e);
            } catch (RuntimeException | LinkageError e) {
                // A fault of this process, not of the request (a JDK class that failed to initialise when descriptors
                // ran out, for one): the connection ends without an answer that would blame the client.
                LOG.atWarn().setCause(e).log("reading a connection failed");
                throw new ServerConnectionException("failed to read from the socket", e);
            }
            if (bytes != null) {
                connection.bytesArrived(bytes.length);
            }
            return bytes;
        });
    }

    GuardedConnection connection() {
        return connection;
    }

    @Override
    public DataReader dataReader() {
        return reader;
    }

    @Override
    public ListenerContext listenerContext() {
        return delegate.listenerContext();
    }

    @Override
    public ExecutorService executor() {
        return delegate.executor();
    }

    @Override
    public DataWriter dataWriter() {
        return writer;
    }

    @Override
    public Router router() {
        return delegate.router();
    }

    @Override
    public Optional<ProxyProtocolData> proxyProtocolData() {
        return delegate.proxyProtocolData();
    }

    @Override
    public HelidonSocket serverSocket() {
        return delegate.serverSocket();
    }

    @Override
    public PeerInfo remotePeer() {
        return delegate.remotePeer();
    }

    @Override
    public PeerInfo localPeer() {
        return delegate.localPeer();
    }

    @Override
    public boolean isSecure() {
        return delegate.isSecure();
    }

    @Override
    public String socketId() {
        return delegate.socketId();
    }

    @Override
    public String childSocketId() {
        return delegate.childSocketId();
    }
}
