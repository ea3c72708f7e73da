package dev.keyhaven.server.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One raw TCP connection to a listener, for requests no HTTP client would send: bytes go out exactly as given
 * (half a request line, a broken chunked body, two framing headers), and what comes back is read byte by byte, so a
 * test can tell a response from a connection the server closed and from one it leaves hanging. Every read gives up
 * after {@link #HANG_GUARD}: a hang fails the test with a message instead of blocking the build.
 */
public final class RawExchange implements AutoCloseable {
    /**
     * How long a read may block before the server counts as hanging: 30 s, or the seconds of the system property
     * {@code keyhaven.test.hangGuardSeconds} (shorter, to watch a server that hangs fail quickly).
     */
    public static final Duration HANG_GUARD = Duration.ofSeconds(Long.getLong("keyhaven.test.hangGuardSeconds", 30));

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RawExchange(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /** A response as it came over the wire; header names in lower case. */
    public record Response(int status, Map<String, String> headers, byte[] body) {
        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    public static RawExchange open(int port) {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress("127.0.0.1", port), (int) HANG_GUARD.toMillis());
            socket.setSoTimeout((int) HANG_GUARD.toMillis());
            return new RawExchange(socket);
        } catch (IOException e) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // The connection failed anyway.
            }
            throw new UncheckedIOException("cannot connect to 127.0.0.1:" + port, e);
        }
    }

    public RawExchange write(String ascii) {
        return write(ascii.getBytes(StandardCharsets.ISO_8859_1));
    }

    public RawExchange write(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Ends what this side sends (TCP FIN); the server can still answer. */
    public RawExchange halfClose() {
        try {
            socket.shutdownOutput();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads one response; {@code toHead}: it answers a HEAD request, which has no body whatever its headers say. */
    public Response read(boolean toHead) {
        String statusLine = readLine();
        if (statusLine == null) {
            throw new AssertionError("the server closed the connection without a response");
        }
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].equals("HTTP/1.1")) {
            throw new AssertionError("not an HTTP/1.1 status line: " + statusLine);
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (String line = readLine(); line != null && !line.isEmpty(); line = readLine()) {
            int colon = line.indexOf(':');
            headers.put(
                    line.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                    line.substring(colon + 1).trim());
        }
        int length = toHead ? 0 : Integer.parseInt(headers.getOrDefault("content-length", "0"));
        try {
            byte[] body = in.readNBytes(length);
            if (body.length < length) {
                throw new AssertionError("the response body ended after " + body.length + " of " + length + " bytes");
            }
            return new Response(Integer.parseInt(parts[1]), headers, body);
        } catch (SocketTimeoutException e) {
            throw hanging();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Response read() {
        return read(false);
    }

    /**
     * Whether the server closed the connection: true at end of stream (or a reset); an assertion error when it sends
     * more bytes instead, or nothing for {@link #HANG_GUARD}.
     */
    public boolean closedByServer() {
        try {
            int next = in.read();
            if (next >= 0) {
                byte[] rest = in.readNBytes(Math.min(in.available(), 512));
                throw new AssertionError("expected the connection to end, but the server sent: " + (char) next
                        + new String(rest, StandardCharsets.ISO_8859_1));
            }
            return true;
        } catch (SocketTimeoutException e) {
            throw hanging();
        } catch (IOException reset) {
            return true;
        }
    }

    private String readLine() {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        try {
            for (int b = in.read(); b >= 0; b = in.read()) {
                if (b == '\n') {
                    String text = line.toString(StandardCharsets.ISO_8859_1);
                    return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
                }
                line.write(b);
            }
            return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
        } catch (SocketTimeoutException e) {
            throw hanging();
        } catch (IOException e) {
            if (line.size() == 0) {
                return null;
            }
            throw new UncheckedIOException(e);
        }
    }

    private static AssertionError hanging() {
        return new AssertionError("the server neither answered nor closed the connection within " + HANG_GUARD);
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Discarded either way.
        }
    }
}
