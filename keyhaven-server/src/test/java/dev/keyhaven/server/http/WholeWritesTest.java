package dev.keyhaven.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.socket.NioSocket;
import io.helidon.common.socket.TlsNioSocket;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link WholeWrites} on a real loopback connection: what arrives is exactly what was written, in order. */
class WholeWritesTest {
    private static final DataWriter HELIDONS = new DataWriter() {
        @Override
        public void write(BufferData... buffers) {
            throw new AssertionError("Helidon's writer is not used for a plain socket");
        }

        @Override
        public void write(BufferData buffer) {
            throw new AssertionError("Helidon's writer is not used for a plain socket");
        }

        @Override
        public void writeNow(BufferData... buffers) {
            throw new AssertionError("Helidon's writer is not used for a plain socket");
        }

        @Override
        public void writeNow(BufferData buffer) {
            throw new AssertionError("Helidon's writer is not used for a plain socket");
        }
    };

    private ServerSocketChannel listener;
    private SocketChannel serverSide;
    private SocketChannel clientSide;

    @BeforeEach
    void connect() throws IOException {
        listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        clientSide = SocketChannel.open(listener.getLocalAddress());
        serverSide = listener.accept();
    }

    @AfterEach
    void close() throws IOException {
        clientSide.close();
        serverSide.close();
        listener.close();
    }

    /** A Helidon upgrade without {@code NioSocket.write(ByteBuffer)} would silently bring back 8 KiB writes. */
    @Test
    void thisHelidonsSocketHasTheChannelWrite() {
        assertThat(WholeWrites.CHANNEL_WRITE).isPresent();
    }

    @Test
    void aResponseHeadAndBodyInOneGrowingBufferArriveExactly() throws IOException {
        byte[] body = "{\"accounts\":[]}".repeat(4_000).getBytes(StandardCharsets.US_ASCII);
        BufferData response = BufferData.growing(256);
        response.write("HTTP/1.1 200 OK\r\nContent-Length: 60000\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        response.write(body);
        byte[] expected =
                concat("HTTP/1.1 200 OK\r\nContent-Length: 60000\r\n\r\n".getBytes(StandardCharsets.US_ASCII), body);

        writer().write(response);

        assertThat(read(expected.length)).isEqualTo(expected);
        assertThat(response.consumed()).isTrue();
    }

    @Test
    void severalBuffersOfOneWriteArriveInOrder() throws IOException {
        BufferData composite = BufferData.create(
                BufferData.create("first ".getBytes(StandardCharsets.US_ASCII)),
                BufferData.create("second ".getBytes(StandardCharsets.US_ASCII)));
        BufferData third = BufferData.create("third".getBytes(StandardCharsets.US_ASCII));

        writer().writeNow(composite, BufferData.empty(), third);

        assertThat(new String(read(18), StandardCharsets.US_ASCII)).isEqualTo("first second third");
    }

    /** More than a slice and more than the socket buffers hold: the rest follows as the reader drains it. */
    @Test
    void aWriteLargerThanASliceArrivesWhole() throws Exception {
        byte[] large = new byte[WholeWrites.SLICE_BYTES * 4 + 3];
        for (int i = 0; i < large.length; i++) {
            large[i] = (byte) (i * 31);
        }
        CompletableFuture<byte[]> received = CompletableFuture.supplyAsync(() -> {
            try {
                return read(large.length);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });

        writer().writeNow(BufferData.create(large));

        assertThat(received.get()).isEqualTo(large);
    }

    @Test
    void anEmptyWriteSendsNothing() throws IOException {
        DataWriter writer = writer();
        writer.writeNow(BufferData.empty());
        writer.write(BufferData.create("after".getBytes(StandardCharsets.US_ASCII)));

        assertThat(new String(read(5), StandardCharsets.US_ASCII)).isEqualTo("after");
    }

    /** A TLS socket is a NioSocket that encrypts in its own write: it keeps Helidon's writer. */
    @Test
    void aTlsSocketKeepsHelidonsWriter() throws GeneralSecurityException {
        TlsNioSocket tls =
                TlsNioSocket.server(serverSide, SSLContext.getDefault().createSSLEngine(), "tls", "tls");

        assertThat(WholeWrites.forSocket(tls, HELIDONS)).isSameAs(HELIDONS);
    }

    private DataWriter writer() {
        DataWriter writer = WholeWrites.forSocket(NioSocket.server(serverSide, "test", "test"), HELIDONS);
        assertThat(writer).isInstanceOf(WholeWrites.class);
        return writer;
    }

    private byte[] read(int length) throws IOException {
        InputStream in = Channels.newInputStream(clientSide);
        return in.readNBytes(length);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = new byte[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
