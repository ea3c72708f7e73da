package dev.keyhaven.server.webhook;

import java.net.InetAddress;
import java.util.List;

/**
 * Which addresses are on the public internet, the only ones deliveries may reach (SSRF).
 *
 * <p>IPv4: every address but IANA's special-purpose ranges that are not globally reachable (this network,
 * private, shared CGNAT, loopback, link-local and cloud metadata, protocol assignments, documentation,
 * benchmarking, the deprecated 6to4 relay anycast, multicast, reserved and broadcast).
 *
 * <p>IPv6: only global unicast ({@code 2000::/3}) less its documentation, benchmarking, ORCHID and other protocol
 * ranges, so loopback, unspecified, unique-local, link-local, site-local, multicast, discard-only and anything not
 * yet allocated are refused without being listed. The forms that carry an IPv4 address are judged by that address,
 * since a translator or tunnel delivers to it: IPv4-mapped ({@code ::ffff:0:0/96}), IPv4-translated
 * ({@code ::ffff:0:0:0/96}), NAT64 ({@code 64:ff9b::/96}), 6to4 ({@code 2002::/16}) and Teredo ({@code 2001::/32},
 * both its server and its XOR-ed client address). The deprecated IPv4-compatible form ({@code ::/96}) and the
 * local-use NAT64 prefix ({@code 64:ff9b:1::/48}) lie outside global unicast and are refused whatever they carry.
 *
 * <p>The address's bytes decide, never {@link InetAddress}'s own predicates: a resolver may hand back an
 * {@code Inet6Address} holding an IPv4-mapped address, which those predicates do not look into.
 */
final class PublicAddresses {
    private static final List<Range> NON_PUBLIC_V4 = Range.all(
            "0.0.0.0/8",
            "10.0.0.0/8",
            "100.64.0.0/10",
            "127.0.0.0/8",
            "169.254.0.0/16",
            "172.16.0.0/12",
            "192.0.0.0/24",
            "192.0.2.0/24",
            "192.88.99.0/24",
            "192.168.0.0/16",
            "198.18.0.0/15",
            "198.51.100.0/24",
            "203.0.113.0/24",
            "224.0.0.0/4",
            "240.0.0.0/4");

    /** Inside {@code 2000::/3}: documentation (two), benchmarking, and IETF protocol assignments (ORCHID...). */
    private static final List<Range> NON_PUBLIC_V6 = Range.all("2001:db8::/32", "3fff::/20", "2001::/23");

    private static final Range IPV4_MAPPED = Range.of("::ffff:0:0/96");
    private static final Range IPV4_TRANSLATED = Range.of("::ffff:0:0:0/96");
    private static final Range NAT64 = Range.of("64:ff9b::/96");
    private static final Range SIX_TO_FOUR = Range.of("2002::/16");
    private static final Range TEREDO = Range.of("2001::/32");
    private static final Range GLOBAL_UNICAST = Range.of("2000::/3");

    private PublicAddresses() {}

    static boolean isPublic(InetAddress address) {
        byte[] bytes = address.getAddress();
        return bytes.length == 4 ? isPublicV4(bytes, 0) : isPublicV6(bytes);
    }

    private static boolean isPublicV6(byte[] b) {
        if (IPV4_MAPPED.contains(b) || IPV4_TRANSLATED.contains(b) || NAT64.contains(b)) {
            return isPublicV4(b, 12);
        }
        if (SIX_TO_FOUR.contains(b)) {
            return isPublicV4(b, 2);
        }
        if (TEREDO.contains(b)) {
            byte[] client = new byte[4];
            for (int i = 0; i < 4; i++) {
                client[i] = (byte) ~b[12 + i];
            }
            return isPublicV4(b, 4) && isPublicV4(client, 0);
        }
        return GLOBAL_UNICAST.contains(b) && NON_PUBLIC_V6.stream().noneMatch(r -> r.contains(b));
    }

    /** The IPv4 address at {@code offset} of {@code bytes}. */
    private static boolean isPublicV4(byte[] bytes, int offset) {
        byte[] v4 = new byte[4];
        System.arraycopy(bytes, offset, v4, 0, 4);
        return NON_PUBLIC_V4.stream().noneMatch(r -> r.contains(v4));
    }

    /** A CIDR prefix; it contains only addresses of its own family (length). */
    private record Range(byte[] prefix, int bits) {

        static Range of(String cidr) {
            int slash = cidr.indexOf('/');
            String literal = cidr.substring(0, slash);
            byte[] prefix = InetAddress.ofLiteral(literal).getAddress();
            if (literal.contains(":") && prefix.length == 4) {
                // InetAddress returns an IPv4-mapped literal as the IPv4 address; the prefix is the IPv6 one.
                byte[] mapped = new byte[16];
                mapped[10] = (byte) 0xff;
                mapped[11] = (byte) 0xff;
                System.arraycopy(prefix, 0, mapped, 12, 4);
                prefix = mapped;
            }
            return new Range(prefix, Integer.parseInt(cidr.substring(slash + 1)));
        }

        static List<Range> all(String... cidrs) {
            return List.of(cidrs).stream().map(Range::of).toList();
        }

        boolean contains(byte[] address) {
            if (address.length != prefix.length) {
                return false;
            }
            for (int bit = 0; bit < bits; bit++) {
                int mask = 0x80 >>> (bit % 8);
                if ((address[bit / 8] & mask) != (prefix[bit / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }
}
