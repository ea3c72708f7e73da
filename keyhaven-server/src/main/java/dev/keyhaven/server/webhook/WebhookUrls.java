package dev.keyhaven.server.webhook;

import dev.keyhaven.server.api.ApiException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;

/**
 * Keeps deliveries off private networks (SSRF): only {@code https} URLs without user information, to host names or
 * addresses that are public. Checked when an endpoint is created or changed (the URL's form, literal addresses and
 * names that are private by definition) and again before every attempt (every address the name resolves to). With
 * {@code allowInsecure} (tests, local development) {@code http} and every address are accepted.
 */
public final class WebhookUrls {
    static final int MAX_URL_LENGTH = 2048;

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
            throw ApiException.badField(field, "must be an absolute https URL of at most " + MAX_URL_LENGTH
                    + " characters");
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
     * Checks, just before an attempt, every address the URL's host resolves to.
     *
     * @return why the attempt must not be made, if it must not
     */
    public Optional<String> refusalBeforeSending(URI uri) {
        if (allowInsecure) {
            return Optional.empty();
        }
        Optional<String> byName = refusal(uri.getHost());
        if (byName.isPresent()) {
            return byName;
        }
        try {
            for (InetAddress address : InetAddress.getAllByName(hostOf(uri))) {
                if (!isPublic(address)) {
                    return Optional.of("the host resolves to a non-public address");
                }
            }
            return Optional.empty();
        } catch (UnknownHostException e) {
            return Optional.of("the host does not resolve");
        }
    }

    /** What is wrong with a host by its name or literal address alone. */
    private static Optional<String> refusal(String host) {
        String name = host.toLowerCase(Locale.ROOT);
        if (name.endsWith(".")) {
            name = name.substring(0, name.length() - 1);
        }
        if (name.equals("localhost") || name.endsWith(".localhost") || name.endsWith(".local")
                || name.endsWith(".internal") || name.equals("metadata") || !name.contains(".") && !name.contains(":")
                && !name.startsWith("[")) {
            return Optional.of("must name a public host (not localhost, a local or internal name, or a metadata "
                    + "service)");
        }
        Optional<InetAddress> literal = literalAddress(name);
        if (literal.isPresent() && !isPublic(literal.get())) {
            return Optional.of("must not point to a loopback, private, link-local or metadata address");
        }
        return Optional.empty();
    }

    private static String hostOf(URI uri) {
        String host = uri.getHost();
        return host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    }

    /** The address a host that is an IP literal names; no DNS lookup is made. */
    private static Optional<InetAddress> literalAddress(String host) {
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        boolean ipv4 = h.matches("[0-9.]+");
        boolean ipv6 = h.contains(":") && h.matches("[0-9a-f:.]+");
        if (ipv4 && !h.matches("(\\d{1,3}\\.){3}\\d{1,3}")) {
            // 127.1, 2130706433: forms resolvers read as addresses; refuse rather than guess.
            return Optional.of(InetAddress.getLoopbackAddress());
        }
        if (!ipv4 && !ipv6) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByName(h));
        } catch (UnknownHostException e) {
            return Optional.of(InetAddress.getLoopbackAddress());
        }
    }

    /** Whether an address is on the public internet (not loopback, private, link-local, shared, reserved...). */
    static boolean isPublic(InetAddress address) {
        if (address.isAnyLocalAddress() || address.isLoopbackAddress() || address.isLinkLocalAddress()
                || address.isSiteLocalAddress() || address.isMulticastAddress()) {
            return false;
        }
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            return isPublicV4(b);
        }
        if (address instanceof Inet6Address) {
            int first = b[0] & 0xff;
            if ((first & 0xfe) == 0xfc) {
                return false; // fc00::/7 unique local
            }
            if (first == 0x20 && (b[1] & 0xff) == 0x01 && (b[2] & 0xff) == 0x0d && (b[3] & 0xff) == 0xb8) {
                return false; // 2001:db8::/32 documentation
            }
            boolean zeroPrefix = true;
            for (int i = 0; i < 10; i++) {
                zeroPrefix &= b[i] == 0;
            }
            if (zeroPrefix && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
                return isPublicV4(java.util.Arrays.copyOfRange(b, 12, 16)); // ::ffff:a.b.c.d
            }
            if (zeroPrefix && b[10] == 0 && b[11] == 0) {
                return false; // ::/96 (IPv4-compatible, unspecified, loopback)
            }
            if (first == 0x00 && (b[1] & 0xff) == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b) {
                return isPublicV4(java.util.Arrays.copyOfRange(b, 12, 16)); // 64:ff9b::/96 NAT64
            }
            return true;
        }
        return false;
    }

    private static boolean isPublicV4(byte[] b) {
        int a0 = b[0] & 0xff;
        int a1 = b[1] & 0xff;
        int a2 = b[2] & 0xff;
        return !(a0 == 0 || a0 == 10 || a0 == 127 || a0 >= 224
                || a0 == 100 && a1 >= 64 && a1 <= 127 // 100.64/10 shared address space
                || a0 == 169 && a1 == 254 // link-local, cloud metadata (169.254.169.254)
                || a0 == 172 && a1 >= 16 && a1 <= 31
                || a0 == 192 && a1 == 168
                || a0 == 192 && a1 == 0 && (a2 == 0 || a2 == 2) // 192.0.0/24 protocol assignments, TEST-NET-1
                || a0 == 198 && (a1 == 18 || a1 == 19) // benchmarking
                || a0 == 198 && a1 == 51 && a2 == 100 || a0 == 203 && a1 == 0 && a2 == 113);
    }
}
