package dev.keyhaven.server.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The POST of one attempt, against receivers on loopback: it dials only the checked addresses, and over TLS the
 * certificate must name the URL's host (sent as SNI) whichever address was dialled; interim answers are skipped;
 * the deadline ends silent and non-reading receivers; answers that are not HTTP, or too long, are errors.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WebhookPostTest {
    private static final String NAME = "hooks.example.test";
    private static final char[] PASSWORD = "changeit".toCharArray();
    private static final byte[] BODY = "{\"activity\":1}".getBytes(StandardCharsets.UTF_8);

    @TempDir
    static Path keys;

    private static KeyStore keyStore;

    private final List<Receiver> receivers = new ArrayList<>();

    /** A P-256 key and a self-signed certificate for {@value #NAME} only, made with the JDK's keytool. */
    @BeforeAll
    static void certificate() throws Exception {
        Path file = keys.resolve("hooks.p12");
        Process keytool = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "keytool")
                                .toString(),
                        "-genkeypair",
                        "-alias",
                        "hooks",
                        "-keyalg",
                        "EC",
                        "-groupname",
                        "secp256r1",
                        "-dname",
                        "CN=" + NAME,
                        "-ext",
                        "SAN=dns:" + NAME,
                        "-validity",
                        "2",
                        "-keystore",
                        file.toString(),
                        "-storetype",
                        "PKCS12",
                        "-storepass",
                        new String(PASSWORD))
                .redirectErrorStream(true)
                .start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(keytool.waitFor()).as(output).isZero();
        keyStore = KeyStore.getInstance(file.toFile(), PASSWORD);
    }

    @AfterEach
    void stopReceivers() throws IOException {
        for (Receiver r : receivers) {
            r.server.close();
        }
    }

    /** One request as a receiver read it, and the SNI name it was asked for. */
    private record Request(String head, byte[] body, List<String> serverNames) {}

    /** Accepts connections on loopback; reads each request and writes what {@code answer} makes of it. */
    private static final class Receiver {
        final ServerSocket server;
        final List<Request> requests = new CopyOnWriteArrayList<>();

        Receiver(ServerSocket server, Function<Request, byte[]> answer) {
            this.server = server;
            Thread.ofVirtual().start(() -> {
                while (!server.isClosed()) {
                    try (Socket s = server.accept()) {
                        Request request = read(s);
                        requests.add(request);
                        byte[] reply = answer.apply(request);
                        if (reply != null) {
                            s.getOutputStream().write(reply);
                            s.getOutputStream().flush();
                        } else {
                            s.getInputStream().read(); // silent: until the client gives up
                        }
                    } catch (IOException e) {
                        // The client went away; wait for the next one.
                    }
                }
            });
        }

        int port() {
            return server.getLocalPort();
        }

        private static Request read(Socket s) throws IOException {
            InputStream in = s.getInputStream();
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b == -1) {
                    throw new IOException("cut off");
                }
                head.write(b);
            }
            String text = head.toString(StandardCharsets.US_ASCII);
            int length = Integer.parseInt(text.lines()
                    .filter(l -> l.startsWith("Content-Length: "))
                    .findFirst()
                    .orElseThrow()
                    .substring("Content-Length: ".length()));
            List<String> names = s instanceof SSLSocket tls && tls.getSession() instanceof ExtendedSSLSession session
                    ? session.getRequestedServerNames().stream()
                            .map(n -> ((SNIHostName) n).getAsciiName())
                            .toList()
                    : List.of();
            return new Request(text, in.readNBytes(length), names);
        }
    }

    private Receiver plain(Function<Request, byte[]> answer) throws IOException {
        ServerSocket server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Receiver r = new Receiver(server, answer);
        receivers.add(r);
        return r;
    }

    private Receiver tls(Function<Request, byte[]> answer) throws Exception {
        KeyManagerFactory km = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        km.init(keyStore, PASSWORD);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(km.getKeyManagers(), null, null);
        SSLServerSocket server =
                (SSLServerSocket) context.getServerSocketFactory().createServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Receiver r = new Receiver(server, answer);
        receivers.add(r);
        return r;
    }

    /** TLS sockets that trust the test's certificate and nothing else. */
    private static SSLSocketFactory trustingTheTestCertificate() {
        try {
            TrustManagerFactory tm = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tm.init(keyStore);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, tm.getTrustManagers(), null);
            return context.getSocketFactory();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] answer(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static WebhookDestination loopback(String url, int port) {
        return new WebhookDestination(
                URI.create(url), URI.create(url).getHost(), port, List.of(InetAddress.getLoopbackAddress()));
    }

    private static SequencedMap<String, String> headers() {
        SequencedMap<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        headers.put("X-Keyhaven-Event-Id", "e-1");
        return headers;
    }

    private static WebhookPost post(WebhookNetwork network, Duration timeout) {
        return new WebhookPost(network, timeout, 1024);
    }

    @Test
    void overHttpsTheCertificateMustNameTheUrlsHostAndItIsSentAsSni() throws Exception {
        Receiver receiver = tls(r -> answer("HTTP/1.1 204 No Content\r\n\r\n"));
        WebhookNetwork network = WebhookNetwork.SYSTEM.withTls(WebhookPostTest::trustingTheTestCertificate);
        try (WebhookPost post = post(network, Duration.ofSeconds(10))) {
            int status = post.send(
                    loopback("https://" + NAME + ":" + receiver.port() + "/hook?x=1", receiver.port()),
                    headers(),
                    BODY);
            assertThat(status).isEqualTo(204);
        }
        Request request = receiver.requests.getFirst();
        assertThat(request.serverNames()).containsExactly(NAME);
        assertThat(request.head())
                .isEqualTo("POST /hook?x=1 HTTP/1.1\r\nHost: " + NAME + ":" + receiver.port()
                        + "\r\nContent-Type: application/json\r\nX-Keyhaven-Event-Id: e-1\r\nContent-Length: "
                        + BODY.length
                        + "\r\nConnection: close\r\n\r\n");
        assertThat(request.body()).isEqualTo(BODY);
    }

    @Test
    void aCertificateForAnotherNameIsRefusedThoughTheAddressIsTheOneDialled() throws Exception {
        Receiver receiver = tls(r -> answer("HTTP/1.1 200 OK\r\n\r\n"));
        WebhookNetwork network = WebhookNetwork.SYSTEM.withTls(WebhookPostTest::trustingTheTestCertificate);
        try (WebhookPost post = post(network, Duration.ofSeconds(10))) {
            assertThatThrownBy(
                            () -> post.send(loopback("https://other.example.test/", receiver.port()), headers(), BODY))
                    .isInstanceOf(SSLHandshakeException.class)
                    .hasMessageContaining("No subject alternative DNS name matching other.example.test found");
        }
        assertThat(receiver.requests).isEmpty();
    }

    @Test
    void aCertificateTheTrustStoreDoesNotKnowIsRefused() throws Exception {
        Receiver receiver = tls(r -> answer("HTTP/1.1 200 OK\r\n\r\n"));
        try (WebhookPost post = post(WebhookNetwork.SYSTEM, Duration.ofSeconds(10))) {
            assertThatThrownBy(() -> post.send(loopback("https://" + NAME + "/", receiver.port()), headers(), BODY))
                    .isInstanceOf(SSLHandshakeException.class)
                    .hasMessageContaining("PKIX path building failed");
        }
        assertThat(receiver.requests).isEmpty();
    }

    @Test
    void onlyTheCheckedAddressesAreDialledInTheirOrder() throws Exception {
        Receiver receiver = plain(r -> answer("HTTP/1.1 200 OK\r\n\r\n"));
        List<InetSocketAddress> dialled = new CopyOnWriteArrayList<>();
        InetAddress unreachable = InetAddress.ofLiteral("93.184.216.34");
        WebhookNetwork network = WebhookNetwork.SYSTEM.withDialer((address, timeout) -> {
            dialled.add(address);
            if (!address.getAddress().isLoopbackAddress()) {
                throw new ConnectException("the test's network reaches loopback only");
            }
            return new Socket(address.getAddress(), address.getPort());
        });
        WebhookDestination destination = new WebhookDestination(
                URI.create("http://hooks.example.test/x"),
                "hooks.example.test",
                receiver.port(),
                List.of(unreachable, InetAddress.getLoopbackAddress()));
        try (WebhookPost post = post(network, Duration.ofSeconds(10))) {
            assertThat(post.send(destination, headers(), BODY)).isEqualTo(200);
        }
        assertThat(dialled)
                .containsExactly(
                        new InetSocketAddress(unreachable, receiver.port()),
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), receiver.port()));
    }

    @Test
    void interimAnswersAreSkippedAndTheFinalStatusIsReturned() throws Exception {
        Receiver receiver = plain(r -> answer("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\n"
                + "Link: </a>; rel=preload\r\n\r\nHTTP/1.1 410 Gone\r\nContent-Length: 3\r\n\r\nbye"));
        try (WebhookPost post = post(WebhookNetwork.SYSTEM, Duration.ofSeconds(10))) {
            assertThat(post.send(loopback("http://hooks.example.test/", receiver.port()), headers(), BODY))
                    .isEqualTo(410);
        }
    }

    @Test
    void anAnswerThatIsNotHttpOrIsTooLongIsAnError() throws Exception {
        Receiver ssh = plain(r -> answer("SSH-2.0-OpenSSH_9.6\r\n"));
        Receiver endless = plain(r -> answer("HTTP/1.1 100 Continue\r\n" + "X: y\r\n".repeat(400)));
        Receiver closing = plain(r -> new byte[0]);
        try (WebhookPost post = post(WebhookNetwork.SYSTEM, Duration.ofSeconds(10))) {
            assertThatThrownBy(() -> post.send(loopback("http://a.example.test/", ssh.port()), headers(), BODY))
                    .isInstanceOf(ProtocolException.class)
                    .hasMessage("the receiver's answer is not HTTP/1.x");
            assertThatThrownBy(() -> post.send(loopback("http://a.example.test/", endless.port()), headers(), BODY))
                    .isInstanceOf(ProtocolException.class)
                    .hasMessage("the receiver's answer exceeds 1024 bytes before its status");
            assertThatThrownBy(() -> post.send(loopback("http://a.example.test/", closing.port()), headers(), BODY))
                    .isInstanceOf(IOException.class)
                    .hasMessage("the receiver closed the connection without answering");
        }
    }

    @Test
    void aSilentReceiverEndsAtTheDeadline() throws Exception {
        Receiver silent = plain(r -> null);
        try (WebhookPost post = post(WebhookNetwork.SYSTEM, Duration.ofMillis(300))) {
            assertThatThrownBy(() -> post.send(loopback("http://a.example.test/", silent.port()), headers(), BODY))
                    .isInstanceOf(SocketTimeoutException.class);
        }
    }

    @Test
    void aReceiverThatReadsNothingEndsAtTheDeadlineToo() throws Exception {
        ServerSocket server = new ServerSocket();
        server.setReceiveBufferSize(4096);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        List<Socket> held = new CopyOnWriteArrayList<>();
        Thread.ofVirtual().start(() -> {
            try {
                held.add(server.accept()); // accepted, never read: the client's writes fill the buffers and block
            } catch (IOException e) {
                // closed by the test
            }
        });
        byte[] large = new byte[32 * 1024 * 1024];
        try (server;
                WebhookPost post = post(WebhookNetwork.SYSTEM, Duration.ofMillis(500))) {
            assertThatThrownBy(() ->
                            post.send(loopback("http://a.example.test/", server.getLocalPort()), headers(), large))
                    .isInstanceOf(SocketTimeoutException.class);
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    @Test
    void aHeaderThatCouldSplitTheRequestIsRefusedBeforeDialling() {
        List<InetSocketAddress> dialled = new ArrayList<>();
        WebhookNetwork network = WebhookNetwork.SYSTEM.withDialer((address, timeout) -> {
            dialled.add(address);
            throw new ConnectException("not reached");
        });
        SequencedMap<String, String> headers = headers();
        headers.put("X-Keyhaven-Organization-Id", "o\r\nX-Injected: 1");
        try (WebhookPost post = post(network, Duration.ofSeconds(1))) {
            assertThatThrownBy(() -> post.send(loopback("http://a.example.test/", 9), headers, BODY))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("not a header a delivery may send: X-Keyhaven-Organization-Id");
        }
        assertThat(dialled).isEmpty();
    }
}
