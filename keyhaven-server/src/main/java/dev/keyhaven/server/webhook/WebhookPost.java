package dev.keyhaven.server.webhook;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.SequencedMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * One attempt's POST over HTTP/1.1, to a {@link WebhookDestination}: it connects to the addresses checked for the
 * destination and to no other (the JDK's {@code HttpClient} takes no resolver and would look the name up again, so
 * an answer changed in between would reach what the check refused). Over https, TLS then uses the URL's host name as
 * SNI and as the name the certificate must carry (the JDK's {@code HTTPS} endpoint identification, as its
 * {@code HttpClient} does), whatever address was dialled.
 *
 * <p>One deadline bounds connecting, the handshake, sending and reading: reads time out at what is left of it, and
 * a timer closes the socket when it passes, which also ends a write stuck on a receiver that does not read.
 * Redirects are not followed (a 3xx is an answer like any other). Of the answer only the status line is needed:
 * interim 1xx answers are skipped, and nothing past the final status line is read; {@code maxAnswerBytes} bounds
 * what is read.
 */
final class WebhookPost implements AutoCloseable {
    private final WebhookNetwork network;
    private final Duration timeout;
    private final int maxAnswerBytes;
    private final ScheduledThreadPoolExecutor deadlines;

    WebhookPost(WebhookNetwork network, Duration timeout, int maxAnswerBytes) {
        this.network = network;
        this.timeout = timeout;
        this.maxAnswerBytes = maxAnswerBytes;
        this.deadlines = new ScheduledThreadPoolExecutor(
                1,
                Thread.ofPlatform().daemon().name("keyhaven-webhook-deadlines").factory());
        deadlines.setRemoveOnCancelPolicy(true);
    }

    /**
     * Sends {@code body} with {@code headers} (besides {@code Host}, {@code Content-Length} and {@code Connection})
     * and returns the answer's status code.
     *
     * @throws SocketTimeoutException when the deadline passed first
     * @throws IOException when no checked address accepted the connection, TLS failed (an untrusted certificate,
     *         one for another name), or the answer was not HTTP/1.x
     */
    int send(WebhookDestination to, SequencedMap<String, String> headers, byte[] body) throws IOException {
        byte[] head = head(to, headers, body.length);
        long deadline = System.nanoTime() + timeout.toNanos();
        Socket socket = connect(to, deadline);
        AtomicBoolean expired = new AtomicBoolean();
        ScheduledFuture<?> guard = deadlines.schedule(
                () -> {
                    expired.set(true);
                    closeQuietly(socket);
                },
                Math.max(0, deadline - System.nanoTime()),
                TimeUnit.NANOSECONDS);
        try (Socket connection = to.tls() ? startTls(socket, to, deadline) : socket) {
            OutputStream out = new BufferedOutputStream(connection.getOutputStream());
            out.write(head);
            out.write(body);
            out.flush();
            InputStream in = new BufferedInputStream(connection.getInputStream(), Math.min(maxAnswerBytes, 8192));
            return finalStatus(connection, in, deadline);
        } catch (IOException e) {
            if (expired.get() && !(e instanceof SocketTimeoutException)) {
                throw new SocketTimeoutException("the deadline passed");
            }
            throw e;
        } finally {
            guard.cancel(false);
            closeQuietly(socket);
        }
    }

    /** Tries the checked addresses in the resolver's order; the first that accepts is used. */
    private Socket connect(WebhookDestination to, long deadline) throws IOException {
        IOException failure = null;
        for (InetAddress address : to.addresses()) {
            try {
                return network.dialer().connect(new InetSocketAddress(address, to.port()), remainingMillis(deadline));
            } catch (SocketTimeoutException e) {
                throw e; // the connect timeout is what is left of the deadline: nothing remains for the next
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        throw failure;
    }

    private SSLSocket startTls(Socket socket, WebhookDestination to, long deadline) throws IOException {
        SSLSocket tls = (SSLSocket) network.tls().get().createSocket(socket, to.tlsHost(), to.port(), true);
        SSLParameters parameters = tls.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        if (!isAddressLiteral(to.tlsHost())) {
            try {
                parameters.setServerNames(List.of(new SNIHostName(to.tlsHost())));
            } catch (IllegalArgumentException e) {
                // Not a name SNI can carry (an underscore, say): none is sent; the certificate is still checked.
                parameters.setServerNames(List.of());
            }
        }
        tls.setSSLParameters(parameters);
        tls.setSoTimeout(remainingMillis(deadline));
        tls.startHandshake();
        return tls;
    }

    private static boolean isAddressLiteral(String host) {
        try {
            InetAddress.ofLiteral(host);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static byte[] head(WebhookDestination to, SequencedMap<String, String> headers, int length) {
        StringBuilder head = new StringBuilder(512)
                .append("POST ")
                .append(to.requestTarget())
                .append(" HTTP/1.1\r\n")
                .append("Host: ")
                .append(to.hostHeader())
                .append("\r\n");
        headers.forEach((name, value) -> {
            if (!name.matches("[A-Za-z0-9-]+") || !value.matches("[\\x20-\\x7e]*")) {
                throw new IllegalArgumentException("not a header a delivery may send: " + name);
            }
            head.append(name).append(": ").append(value).append("\r\n");
        });
        head.append("Content-Length: ").append(length).append("\r\n").append("Connection: close\r\n\r\n");
        return head.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** The status code of the first answer that is not an interim 1xx one. */
    private int finalStatus(Socket connection, InputStream in, long deadline) throws IOException {
        AnswerLines answer = new AnswerLines(in, maxAnswerBytes);
        while (true) {
            connection.setSoTimeout(remainingMillis(deadline));
            String statusLine = answer.next();
            if (!statusLine.matches("HTTP/1\\.[01] [1-9][0-9]{2}( .*)?")) {
                throw new ProtocolException("the receiver's answer is not HTTP/1.x");
            }
            int status = Integer.parseInt(statusLine.substring(9, 12));
            if (status >= 200 || status == 101) {
                return status;
            }
            // 100 Continue, 103 Early Hints...: their header lines, up to the empty one, then the real answer.
            String header;
            do {
                connection.setSoTimeout(remainingMillis(deadline));
                header = answer.next();
            } while (!header.isEmpty());
        }
    }

    /** The answer's lines, read byte by byte (nothing past the last line asked for), within a byte budget. */
    private static final class AnswerLines {
        private final InputStream in;
        private final int budget;
        private int read;

        AnswerLines(InputStream in, int budget) {
            this.in = in;
            this.budget = budget;
        }

        /** One line without its end (CRLF, or a bare LF). */
        String next() throws IOException {
            StringBuilder line = new StringBuilder();
            while (true) {
                if (read++ >= budget) {
                    throw new ProtocolException(
                            "the receiver's answer exceeds " + budget + " bytes before its " + "status");
                }
                int b = in.read();
                if (b == -1) {
                    throw new EOFException("the receiver closed the connection without answering");
                }
                if (b == '\n') {
                    int end = line.length();
                    return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
                }
                line.append((char) b);
            }
        }
    }

    private static int remainingMillis(long deadline) throws SocketTimeoutException {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
            throw new SocketTimeoutException("the deadline passed");
        }
        return (int) Math.min(left, Integer.MAX_VALUE);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Closing is all that is left to do with it.
        }
    }

    @Override
    public void close() {
        deadlines.shutdownNow();
    }
}
