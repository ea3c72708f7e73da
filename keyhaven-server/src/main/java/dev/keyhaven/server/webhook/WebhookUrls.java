package dev.keyhaven.server.webhook;

import dev.keyhaven.server.api.ApiException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Keeps deliveries off private networks (SSRF): only {@code https} URLs without user information, to host names or
 * addresses that are public ({@link PublicAddresses}). Checked when an endpoint is created or changed (the URL's
 * form, literal addresses and names that are private by definition) and again at every attempt, which resolves the
 * name once, checks every address and connects to those only ({@link #destination}). With {@code allowInsecure}
 * (tests, local development) {@code http} and every address are accepted.
 */
public final class WebhookUrls {
    static final int MAX_URL_LENGTH = 2048;
    private static final int HTTPS_PORT = 443;
    private static final int HTTP_PORT = 80;
    private static final String NON_PUBLIC_ADDRESS =
            "must not point to a loopback, private, link-local or metadata " + "address";

    private final boolean allowInsecure;

    public WebhookUrls(boolean allowInsecure) {
        this.allowInsecure = allowInsecure;
    }

    /**
     * The URL a request gave, checked.
     *
     * @throws ApiException a 400 naming {@code field} and what is wrong
     */
    public URI parse(String field, String url) {
        if (url.isBlank() || url.length() > MAX_URL_LENGTH) {
            throw ApiException.badField(
                    field, "must be an absolute https URL of at most " + MAX_URL_LENGTH + " characters");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw ApiException.badField(field, "is not a valid URL");
        }
        String scheme = Optional.ofNullable(uri.getScheme()).orElse("").toLowerCase(Locale.ROOT);
        if (!scheme.equals("https") && !(allowInsecure && scheme.equals("http"))) {
            throw ApiException.badField(field, "must be an https URL");
        }
        if (uri.getRawUserInfo() != null) {
            throw ApiException.badField(field, "must not contain user information (user:password@)");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw ApiException.badField(field, "must name a host");
        }
        if (uri.getRawFragment() != null) {
            throw ApiException.badField(field, "must not contain a fragment");
        }
        if (!allowInsecure) {
            refusal(uri.getHost()).ifPresent(problem -> {
                throw ApiException.badField(field, problem);
            });
        }
        return uri;
    }

    /**
     * Where an attempt to {@code url} goes: its host resolved once, here, and every address checked. The attempt
     * must connect to these addresses only (pinning them), so an answer that changes between the check and the
     * connection (DNS rebinding) cannot reach what the check refused. Without {@code allowInsecure} nothing but
     * public addresses passes; with it, the host is still resolved once and pinned, but not checked.
     *
     * @throws RefusedDestination why no attempt may be made: a host refused by its name, one that does not
     *         resolve, or one with any non-public address
     */
    public WebhookDestination destination(URI url, WebhookNetwork.Resolver resolver) throws RefusedDestination {
        String host = url.getHost();
        if (!allowInsecure) {
            Optional<String> byName = refusal(host);
            if (byName.isPresent()) {
                throw new RefusedDestination("the URL " + byName.get());
            }
        }
        String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        List<InetAddress> addresses;
        Optional<InetAddress> literal = exactLiteral(host.toLowerCase(Locale.ROOT));
        if (literal.isPresent()) {
            addresses = List.of(literal.get());
        } else {
            try {
                addresses = List.copyOf(resolver.resolve(bare));
            } catch (UnknownHostException e) {
                throw new RefusedDestination("the host does not resolve");
            }
            if (addresses.isEmpty()) {
                throw new RefusedDestination("the host does not resolve");
            }
        }
        if (!allowInsecure && !addresses.stream().allMatch(PublicAddresses::isPublic)) {
            throw new RefusedDestination("the host resolves to a non-public address");
        }
        int port = url.getPort() != -1
                ? url.getPort()
                : url.getScheme().equalsIgnoreCase("https") ? HTTPS_PORT : HTTP_PORT;
        return new WebhookDestination(url, bare, port, addresses);
    }

    /** What is wrong with a host by its name or literal address alone. */
    private static Optional<String> refusal(String host) {
        String name = host.toLowerCase(Locale.ROOT);
        if (name.endsWith(".")) {
            name = name.substring(0, name.length() - 1);
        }
        if (name.startsWith("[")) {
            return byAddress(
                    name, "must name its host by a name, an IPv4 address or an IPv6 address without a " + "zone");
        }
        if (name.equals("localhost")
                || name.endsWith(".localhost")
                || name.endsWith(".local")
                || name.endsWith(".internal")
                || name.equals("metadata")
                || !name.contains(".")) {
            return Optional.of(
                    "must name a public host (not localhost, a local or internal name, or a metadata " + "service)");
        }
        String lastLabel = name.substring(name.lastIndexOf('.') + 1);
        if (lastLabel.matches("[0-9]+|0x[0-9a-f]*")) {
            // No top-level domain is numeric: this is an address. Only the plain dotted quad is taken as one:
            // resolvers read 0177.0.0.1 (octal) or 0x7f.1 differently, and java.net.URI lets some of them through.
            return byAddress(name, "must write an IPv4 address as four decimal numbers without leading zeros");
        }
        return Optional.empty();
    }

    /** What is wrong with a host that is an address literal: not public, or {@code malformed} if no literal. */
    private static Optional<String> byAddress(String host, String malformed) {
        Optional<InetAddress> literal = exactLiteral(host);
        if (literal.isEmpty()) {
            return Optional.of(malformed);
        }
        return PublicAddresses.isPublic(literal.get()) ? Optional.empty() : Optional.of(NON_PUBLIC_ADDRESS);
    }

    /**
     * The address a host names when it is a plain dotted quad (no leading zeros) or a bracketed IPv6 address
     * without a zone; parsed, never looked up ({@link InetAddress#ofLiteral}).
     */
    private static Optional<InetAddress> exactLiteral(String host) {
        boolean ipv6 = host.startsWith("[")
                && host.endsWith("]")
                && host.substring(1, host.length() - 1).matches("[0-9a-f:.]*:[0-9a-f:.]*");
        boolean ipv4 = host.matches("(0|[1-9][0-9]{0,2})(\\.(0|[1-9][0-9]{0,2})){3}");
        if (!ipv6 && !ipv4) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.ofLiteral(ipv6 ? host.substring(1, host.length() - 1) : host));
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // 256.1.1.1, 1:2:3: and the like
        }
    }
}
