package dev.keyhaven.server.testing;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A minimal HTTP/1.1 client on one kept-alive connection, for tests that stop a server under load. The JDK client
 * reports "the server never answered" and "the answer was cut off" as the same {@link IOException}; this one tells
 * them apart: {@link Outcome.NoResponse} when not one byte of a response arrived, {@link Outcome.Truncated} when
 * part of one did. After anything but a complete response the connection is closed and the next request opens a new
 * one.
 */
public final class RawHttpConnection implements AutoCloseable {
    private static final int TIMEOUT_MILLIS = 60_000;

    private final String host;
    private final int port;
    private Socket socket;
    private CountingInput in;
    private OutputStream out;

    public RawHttpConnection(String host, int port) {
        this.host = host;
        this.port = port;
    }

    /** What became of one request. */
    public sealed interface Outcome {
        /** A complete response; header names are lower case. */
        record Response(int status, Map<String, String> headers, byte[] body) implements Outcome {
            public String bodyText() {
                return new String(body, StandardCharsets.UTF_8);
            }
        }

        /** Not one byte of a response: the connection was refused, reset or closed first. */
        record NoResponse(IOException cause) implements Outcome {}

        /** Part of a response arrived, then the connection ended. */
        record Truncated(int bytesReceived, IOException cause) implements Outcome {}
    }

    /** POSTs {@code body} to {@code path} with the given extra headers and reads the response. */
    public Outcome post(String path, byte[] body, Map<String, String> headers) {
        try {
            connectIfNeeded();
            out.write(head(path, body.length, headers, false));
            out.write(body);
            out.flush();
        } catch (IOException e) {
            close();
            return new Outcome.NoResponse(e);
        }
        return readResponse();
    }

    /**
     * Sends only the head of a POST with {@code Expect: 100-continue} and waits for the server's interim
     * {@code 100 Continue}, which a server sends once the handler starts reading the body: from then on the request is
     * in flight inside the server. Finish it with {@link #sendBodyAndRead}.
     *
     * @throws IllegalStateException when the server answers anything but 100 Continue
     */
    public void startExpectingContinue(String path, int contentLength, Map<String, String> headers) {
        try {
            connectIfNeeded();
            out.write(head(path, contentLength, headers, true));
            out.flush();
            String statusLine = readLine();
            int status = parseStatus(statusLine);
            readHeaders();
            if (status != 100) {
                throw new IllegalStateException("expected 100 Continue, got: " + statusLine);
            }
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("could not start the request", e);
        }
    }

    /** Sends the body of a request begun with {@link #startExpectingContinue} and reads the final response. */
    public Outcome sendBodyAndRead(byte[] body) {
        try {
            out.write(body);
            out.flush();
        } catch (IOException e) {
            close();
            return new Outcome.NoResponse(e);
        }
        return readResponse();
    }

    private byte[] head(String path, int contentLength, Map<String, String> headers, boolean expectContinue) {
        StringBuilder head = new StringBuilder()
                .append("POST ")
                .append(path)
                .append(" HTTP/1.1\r\n")
                .append("Host: ")
                .append(host)
                .append(':')
                .append(port)
                .append("\r\n")
                .append("Content-Type: application/json\r\n")
                .append("Content-Length: ")
                .append(contentLength)
                .append("\r\n");
        if (expectContinue) {
            head.append("Expect: 100-continue\r\n");
        }
        headers.forEach(
                (name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        return head.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII);
    }

    private void connectIfNeeded() throws IOException {
        if (socket != null) {
            return;
        }
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
            s.setSoTimeout(TIMEOUT_MILLIS);
            s.setTcpNoDelay(true);
        } catch (IOException e) {
            s.close();
            throw e;
        }
        socket = s;
        in = new CountingInput(s.getInputStream());
        out = s.getOutputStream();
    }

    private Outcome readResponse() {
        in.count = 0;
        try {
            int status;
            Map<String, String> headers;
            do {
                status = parseStatus(readLine());
                headers = readHeaders();
            } while (status / 100 == 1);
            byte[] body = readBody(headers);
            if ("close".equalsIgnoreCase(headers.get("connection"))) {
                close();
            }
            return new Outcome.Response(status, headers, body);
        } catch (IOException e) {
            int received = in == null ? 0 : in.count;
            close();
            return received == 0 ? new Outcome.NoResponse(e) : new Outcome.Truncated(received, e);
        }
    }

    private static int parseStatus(String statusLine) throws IOException {
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
            throw new IOException("not an HTTP status line: " + statusLine);
        }
        return parseInt(parts[1], 10);
    }

    private Map<String, String> readHeaders() throws IOException {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String line = readLine(); !line.isEmpty(); line = readLine()) {
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IOException("malformed header line: " + line);
            }
            headers.put(
                    line.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                    line.substring(colon + 1).trim());
        }
        return headers;
    }

    private byte[] readBody(Map<String, String> headers) throws IOException {
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            for (int size = chunkSize(); size > 0; size = chunkSize()) {
                body.write(readExactly(size));
                if (!readLine().isEmpty()) {
                    throw new IOException("malformed chunk");
                }
            }
            readHeaders();
            return body.toByteArray();
        }
        String length = headers.get("content-length");
        if (length == null) {
            throw new IOException("response has neither Content-Length nor chunked encoding");
        }
        return readExactly(parseInt(length, 10));
    }

    private int chunkSize() throws IOException {
        String line = readLine();
        int extension = line.indexOf(';');
        return parseInt((extension < 0 ? line : line.substring(0, extension)).trim(), 16);
    }

    private static int parseInt(String text, int radix) throws IOException {
        try {
            return Integer.parseInt(text, radix);
        } catch (NumberFormatException e) {
            throw new IOException("malformed length: " + text, e);
        }
    }

    private byte[] readExactly(int length) throws IOException {
        byte[] bytes = in.readNBytes(length);
        if (bytes.length < length) {
            throw new EOFException("connection ended after " + bytes.length + " of " + length + " body bytes");
        }
        return bytes;
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("connection ended");
            }
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                int end = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, end, StandardCharsets.ISO_8859_1);
            }
            line.write(b);
        }
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // The connection is being discarded either way.
            }
            socket = null;
            in = null;
            out = null;
        }
    }

    /** Counts the bytes of the current response, so a cut-off one can be told from none at all. */
    private static final class CountingInput extends InputStream {
        private final InputStream delegate;
        private final byte[] buffer = new byte[8192];
        private int position;
        private int limit;
        int count;

        CountingInput(InputStream delegate) {
            this.delegate = delegate;
        }

        @Override
        public int read() throws IOException {
            if (position == limit && !fill()) {
                return -1;
            }
            count++;
            return buffer[position++] & 0xff;
        }

        @Override
        public int read(byte[] target, int offset, int length) throws IOException {
            if (length == 0) {
                return 0;
            }
            if (position == limit && !fill()) {
                return -1;
            }
            int n = Math.min(length, limit - position);
            System.arraycopy(buffer, position, target, offset, n);
            position += n;
            count += n;
            return n;
        }

        private boolean fill() throws IOException {
            int n = delegate.read(buffer);
            if (n <= 0) {
                return false;
            }
            position = 0;
            limit = n;
            return true;
        }
    }
}
