package dev.keyhaven.server.webhook;

import java.net.InetAddress;
import java.net.URI;
import java.util.List;
import java.util.Locale;

/**
 * Where one attempt goes: the endpoint's URL, its host (without brackets), port, and the addresses the host
 * resolved to, each one checked. The attempt connects to these only: resolving again could answer differently.
 */
public record WebhookDestination(URI url, String host, int port, List<InetAddress> addresses) {

    public WebhookDestination {
        addresses = List.copyOf(addresses);
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("a destination has at least one address");
        }
    }

    boolean tls() {
        return url.getScheme().toLowerCase(Locale.ROOT).equals("https");
    }

    /** The host the certificate must name, and the SNI name: the URL's, without a final dot. */
    String tlsHost() {
        return host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
    }

    /** {@code Host}: the URL's host and port as written (ASCII: a URI with a host has one). */
    String hostHeader() {
        return url.getRawAuthority();
    }

    /** The request line's target: the URL's path (at least {@code /}) and query, percent-encoded. */
    String requestTarget() {
        URI ascii = URI.create(url.toASCIIString());
        String path = ascii.getRawPath() == null || ascii.getRawPath().isEmpty() ? "/" : ascii.getRawPath();
        return ascii.getRawQuery() == null ? path : path + "?" + ascii.getRawQuery();
    }
}
