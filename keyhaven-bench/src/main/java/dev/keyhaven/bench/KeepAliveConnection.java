package dev.keyhaven.bench;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * One HTTP/1.1 keep-alive connection that sends pre-serialised requests and reads just enough of each response to
 * know its status and skip its body. The JDK's HttpClient spends about as much CPU per request as the server does,
 * which on a 2-core machine would measure the client; this costs next to nothing.
 */
final class KeepAliveConnection implements AutoCloseable {
    private final String host;
    private final int port;
    private Socket socket;
    private OutputStream out;
    private InputStream in;

    KeepAliveConnection(URI base) {
        this.host = base.getHost();
        this.port = base.getPort();
    }

    /** The bytes of a complete POST request. */
    static byte[] serialise(URI base, PreparedRequest request) {
        String head = "POST " + request.path() + " HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
                + "\r\nContent-Type: application/json\r\n" + request.stampHeader() + ": " + request.stampValue()
                + "\r\nContent-Length: " + request.body().length + "\r\n\r\n";
        byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[headBytes.length + request.body().length];
        System.arraycopy(headBytes, 0, all, 0, headBytes.length);
        System.arraycopy(request.body(), 0, all, headBytes.length, request.body().length);
        return all;
    }

    /** Sends one request and returns the response status; reconnects when the server closed the connection. */
    int send(byte[] request) throws IOException {
        return send(request, null);
    }

    /**
     * Sends one request and returns the response status, or -1 when {@code expect} is given and the response body
     * does not contain it (e.g. an activity answered with 200 that did not complete).
     */
    int send(byte[] request, byte[] expect) throws IOException {
        if (socket == null) {
            socket = new Socket(host, port);
            socket.setTcpNoDelay(true);
            out = socket.getOutputStream();
            in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
        }
        try {
            out.write(request);
            out.flush();
            return readResponse(expect);
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    private int readResponse(byte[] expect) throws IOException {
        String statusLine = readLine();
        int status = Integer.parseInt(statusLine.substring(9, 12));
        long length = -1;
        boolean close = false;
        String line;
        while (!(line = readLine()).isEmpty()) {
            String lower = line.toLowerCase(java.util.Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Long.parseLong(line.substring(15).trim());
            } else if (lower.startsWith("connection:") && lower.contains("close")) {
                close = true;
            }
        }
        if (length < 0) {
            throw new IOException("response without Content-Length");
        }
        boolean found = true;
        if (expect == null) {
            in.skipNBytes(length);
        } else {
            found = contains(in.readNBytes((int) length), expect);
        }
        if (close) {
            close();
        }
        return found ? status : -1;
    }

    private static boolean contains(byte[] body, byte[] expect) {
        outer:
        for (int i = 0; i + expect.length <= body.length; i++) {
            for (int j = 0; j < expect.length; j++) {
                if (body[i + j] != expect[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != '\n') {
            if (c < 0) {
                throw new IOException("connection closed");
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // Closing a broken connection has nothing left to report.
            }
            socket = null;
        }
    }
}
