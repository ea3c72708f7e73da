package dev.keyhaven.server.http;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.socket.NioSocket;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * Writes what Helidon hands over for one write in one system call. Helidon 4.5's plain socket ({@link NioSocket})
 * copies every write through its own 8 KiB buffer and writes the pieces one by one, and it writes a response's head
 * apart from its body: a whoami answer took two {@code write} calls and two TCP segments, a 54 kB page of
 * list_wallet_accounts eight, each one a round through the kernel's TCP stack on both ends of the connection. This
 * writer gathers the buffers of one write into one array and hands it to the socket's channel at once.
 *
 * <p>It reaches the channel through {@code NioSocket.write(ByteBuffer)}, a protected method of that exact class (a
 * write there is the channel's write, with Helidon's own error wrapping); any other socket (TLS) keeps Helidon's
 * writer, and so does every socket if a Helidon upgrade drops the method ({@code WholeWritesTest} says so loudly).
 * Only one party writes to a connection at a time (see {@link GuardedConnection}), as with Helidon's writer.
 */
final class WholeWrites implements DataWriter {
    /** The most bytes handed to the channel in one call. */
    static final int SLICE_BYTES = 256 * 1024;

    /** {@code NioSocket.write(ByteBuffer)}, or empty when this Helidon has no such method. */
    static final Optional<MethodHandle> CHANNEL_WRITE = channelWrite();

    private final NioSocket socket;

    private WholeWrites(NioSocket socket) {
        this.socket = socket;
    }

    /** A writer of whole writes for a plain socket; {@code helidons} for any other socket. */
    static DataWriter forSocket(HelidonSocket socket, DataWriter helidons) {
        if (CHANNEL_WRITE.isPresent() && socket.getClass() == NioSocket.class) {
            return new WholeWrites((NioSocket) socket);
        }
        return helidons;
    }

    @Override
    public void write(BufferData... buffers) {
        writeNow(buffers);
    }

    @Override
    public void write(BufferData buffer) {
        writeNow(buffer);
    }

    @Override
    public void writeNow(BufferData... buffers) {
        int length = 0;
        for (BufferData buffer : buffers) {
            length = Math.addExact(length, buffer.available());
        }
        byte[] bytes = new byte[length];
        int at = 0;
        for (BufferData buffer : buffers) {
            at = drain(buffer, bytes, at);
        }
        send(ByteBuffer.wrap(bytes, 0, at));
    }

    @Override
    public void writeNow(BufferData buffer) {
        byte[] bytes = new byte[buffer.available()];
        send(ByteBuffer.wrap(bytes, 0, drain(buffer, bytes, 0)));
    }

    /** Reads all of {@code buffer} into {@code bytes} from {@code at}; the index after the last byte read. */
    private static int drain(BufferData buffer, byte[] bytes, int at) {
        int next = at;
        while (!buffer.consumed() && next < bytes.length) {
            next += buffer.read(bytes, next, bytes.length - next);
        }
        return next;
    }

    /**
     * Writes every byte, in slices of at most {@link #SLICE_BYTES}: the JDK copies a heap buffer into a direct buffer
     * of the slice's size, which it keeps for the carrier thread, so a slice bounds that memory. A blocking channel
     * may still take fewer bytes than offered (a full send buffer); the rest follows.
     */
    private void send(ByteBuffer bytes) {
        MethodHandle write = CHANNEL_WRITE.orElseThrow();
        int end = bytes.limit();
        while (bytes.position() < end) {
            bytes.limit(Math.min(end, bytes.position() + SLICE_BYTES));
            while (bytes.hasRemaining()) {
                try {
                    int written = (int) write.invokeExact(socket, bytes);
                    if (written < 0) {
                        throw new IllegalStateException("the socket's channel wrote " + written + " bytes");
                    }
                } catch (RuntimeException | Error e) {
                    throw e;
                } catch (Throwable e) {
                    // NioSocket.write declares no checked exception (it wraps IOException as UncheckedIOException).
                    throw new IllegalStateException("writing to the socket failed", e);
                }
            }
        }
    }

    private static Optional<MethodHandle> channelWrite() {
        try {
            MethodHandles.Lookup nioSocket = MethodHandles.privateLookupIn(NioSocket.class, MethodHandles.lookup());
            return Optional.of(nioSocket.findVirtual(
                    NioSocket.class, "write", MethodType.methodType(int.class, ByteBuffer.class)));
        } catch (ReflectiveOperationException | SecurityException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
