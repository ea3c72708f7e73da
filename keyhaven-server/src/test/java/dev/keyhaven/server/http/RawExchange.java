package dev.keyhaven.server.http;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Sends one raw request on a new connection and reads what comes back, telling apart the ways it can go wrong: no
 * response at all, a response cut off, or nothing complete within the time limit (a hang). After a response to HEAD,
 * a second request ({@code GET /health}) on the same connection shows whether the server wrote a body after the
 * head, which a client then reads as the start of the next response.
 */
final class RawExchange {
    private static final byte[] NEXT = "GET /health HTTP/1.1\r\nHost: fuzz\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private RawExchange() {}

    sealed interface Outcome {
        /** A complete response; header names in lower case. */
        record Response(int status, Map<String, String> headers, byte[] body) implements Outcome {
            String bodyText() {
                return new String(body, StandardCharsets.UTF_8);
            }
        }

        /** The connection ended before one byte of a response. */
        record NoResponse(String why) implements Outcome {}

        /** Part of a response came, then the connection ended. */
        record Truncated(String why) implements Outcome {}

        /** Nothing complete within the limit. */
        record TimedOut(int bytesReceived) implements Outcome {}

        /** A HEAD response was followed by body bytes before the next response. */
        record BodyAfterHead(int status, String followedBy) implements Outcome {}
    }

    static Outcome send(String host, int port, RawRequest request, Duration timeout) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
            socket.setSoTimeout((int) timeout.toMillis());
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            Counting in = new Counting(socket.getInputStream());
            try {
                out.write(request.bytes(host + ":" + port));
                out.flush();
            } catch (IOException e) {
                // The server may answer and close before reading all of a request it refuses: read what it sent.
            }
            long deadline = System.nanoTime() + timeout.toNanos();
            Outcome first = read(in, request.isHead(), deadline);
            if (request.isHead() && first instanceof Outcome.Response head) {
                return afterHead(out, in, head, deadline);
            }
            return first;
        } catch (IOException e) {
            return new Outcome.NoResponse("connect: " + e.getMessage());
        }
    }

    private static Outcome afterHead(OutputStream out, Counting in, Outcome.Response head, long deadline) {
        if ("close".equalsIgnoreCase(head.headers().get("connection"))) {
            return head;
        }
        try {
            out.write(NEXT);
            out.flush();
        } catch (IOException e) {
            return head;
        }
        in.count = 0;
        String line;
        try {
            line = readLine(in, deadline);
        } catch (IOException e) {
            return head;
        }
        return line.startsWith("HTTP/1.")
                ? head
                : new Outcome.BodyAfterHead(head.status(), line.length() > 80 ? line.substring(0, 80) : line);
    }

    private static Outcome read(Counting in, boolean head, long deadline) {
        try {
            int status;
            Map<String, String> headers;
            do {
                String statusLine = readLine(in, deadline);
                String[] parts = statusLine.split(" ", 3);
                if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
                    return new Outcome.Truncated("not a status line: " + abbreviate(statusLine));
                }
                status = Integer.parseInt(parts[1]);
                headers = readHeaders(in, deadline);
            } while (status / 100 == 1);
            byte[] body = head || status == 204 || status == 304 ? new byte[0] : readBody(in, headers, deadline);
            return new Outcome.Response(status, headers, body);
        } catch (SocketTimeoutException e) {
            return new Outcome.TimedOut(in.count);
        } catch (IOException | NumberFormatException e) {
            return in.count == 0
                    ? new Outcome.NoResponse(String.valueOf(e.getMessage()))
                    : new Outcome.Truncated(String.valueOf(e.getMessage()));
        }
    }

    private static Map<String, String> readHeaders(Counting in, long deadline) throws IOException {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String line = readLine(in, deadline); !line.isEmpty(); line = readLine(in, deadline)) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                headers.put(
                        line.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        line.substring(colon + 1).trim());
            }
        }
        return headers;
    }

    private static byte[] readBody(Counting in, Map<String, String> headers, long deadline) throws IOException {
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            while (true) {
                String size = readLine(in, deadline);
                int semicolon = size.indexOf(';');
                int length = Integer.parseInt((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
                if (length == 0) {
                    readHeaders(in, deadline);
                    return body.toByteArray();
                }
                body.writeBytes(exactly(in, length, deadline));
                readLine(in, deadline);
            }
        }
        String length = headers.get("content-length");
        if (length != null) {
            return exactly(in, Integer.parseInt(length), deadline);
        }
        // Neither: the body runs to the end of the connection.
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (int b = in.read(deadline); b >= 0; b = in.read(deadline)) {
            body.write(b);
        }
        return body.toByteArray();
    }

    private static byte[] exactly(Counting in, int length, long deadline) throws IOException {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            int b = in.read(deadline);
            if (b < 0) {
                throw new EOFException("connection ended after " + i + " of " + length + " body bytes");
            }
            bytes[i] = (byte) b;
        }
        return bytes;
    }

    private static String readLine(Counting in, long deadline) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        while (true) {
            int b = in.read(deadline);
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

    private static String abbreviate(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "…";
    }

    /** Counts what arrived, and ends the wait at the request's deadline however the bytes trickle in. */
    private static final class Counting {
        private final InputStream delegate;
        private final byte[] buffer = new byte[8192];
        private int position;
        private int limit;
        int count;

        Counting(InputStream delegate) {
            this.delegate = delegate;
        }

        int read(long deadline) throws IOException {
            if (position == limit) {
                if (System.nanoTime() > deadline) {
                    throw new SocketTimeoutException("deadline passed");
                }
                int n = delegate.read(buffer);
                if (n <= 0) {
                    return -1;
                }
                position = 0;
                limit = n;
            }
            count++;
            return buffer[position++] & 0xff;
        }
    }
}
