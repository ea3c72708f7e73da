package dev.keyhaven.server.webhook;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.util.List;
import java.util.function.Supplier;
import javax.net.ssl.SSLSocketFactory;

/**
 * How the deliverer reaches receivers: the resolver that looks a host name up (once per attempt), the dialer that
 * opens a TCP connection to an address already checked, and the TLS sockets laid over it. {@link #SYSTEM} is the
 * machine's DNS, plain sockets and the JVM's default trust store; tests replace the parts to play DNS, to see where
 * the deliverer connects without leaving the machine, and to trust a certificate of their own.
 */
public record WebhookNetwork(Resolver resolver, Dialer dialer, Supplier<SSLSocketFactory> tls) {

    public static final WebhookNetwork SYSTEM =
            new WebhookNetwork(host -> List.of(InetAddress.getAllByName(host)), WebhookNetwork::connectDirectly, () ->
                    (SSLSocketFactory) SSLSocketFactory.getDefault());

    /** Looks up every address of a host name. */
    @FunctionalInterface
    public interface Resolver {
        List<InetAddress> resolve(String host) throws UnknownHostException;
    }

    /** Opens a TCP connection to exactly {@code address}, or fails within {@code timeoutMillis}. */
    @FunctionalInterface
    public interface Dialer {
        Socket connect(InetSocketAddress address, int timeoutMillis) throws IOException;
    }

    public WebhookNetwork withResolver(Resolver other) {
        return new WebhookNetwork(other, dialer, tls);
    }

    public WebhookNetwork withDialer(Dialer other) {
        return new WebhookNetwork(resolver, other, tls);
    }

    public WebhookNetwork withTls(Supplier<SSLSocketFactory> other) {
        return new WebhookNetwork(resolver, dialer, other);
    }

    private static Socket connectDirectly(InetSocketAddress address, int timeoutMillis) throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(address, timeoutMillis);
            return socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }
}
