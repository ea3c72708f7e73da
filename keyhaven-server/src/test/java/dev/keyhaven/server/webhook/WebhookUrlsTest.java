package dev.keyhaven.server.webhook;

import static dev.keyhaven.server.testing.ApiErrors.isError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** SSRF rules: https only, no user information, no loopback, private, link-local or metadata destinations. */
class WebhookUrlsTest {
    private static final String NON_PUBLIC = "bad request body: parameters.url must not point to a loopback, private, "
            + "link-local or metadata address";

    private final WebhookUrls strict = new WebhookUrls(false);
    private final WebhookUrls insecure = new WebhookUrls(true);

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://hooks.example.com/keyhaven",
                "https://hooks.example.com:8443/a?b=c",
                "https://93.184.216.34/hook",
                "https://[2606:4700::1111]/hook"
            })
    void publicHttpsUrlsAreAccepted(String url) {
        assertThat(strict.parse("parameters.url", url)).isEqualTo(URI.create(url));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://hooks.example.com/",
                "ftp://hooks.example.com/",
                "hooks.example.com/x",
                "https://user:pw@hooks.example.com/",
                "https://user@hooks.example.com/",
                "https://localhost/",
                "https://LOCALHOST./x",
                "https://api.localhost/",
                "https://printer.local/",
                "https://metadata/",
                "https://metadata.google.internal/computeMetadata",
                "https://intranet/",
                "https://127.0.0.1/",
                "https://127.1/",
                "https://2130706433/",
                "https://10.0.0.1/",
                "https://172.16.5.4/",
                "https://192.168.1.1/",
                "https://169.254.169.254/latest/meta-data",
                "https://100.64.0.1/",
                "https://0.0.0.0/",
                "https://[::1]/",
                "https://[fd00::1]/",
                "https://[fe80::1]/",
                "https://[::ffff:127.0.0.1]/",
                "https://[::ffff:a9fe:a9fe]/",
                "https://[64:ff9b::a00:1]/",
                "https://hooks.example.com/#fragment",
                "https:///path",
                "https://",
                "https://exa mple.com/"
            })
    void privateOrMalformedUrlsAreRefusedNamingTheField(String url) {
        assertThatThrownBy(() -> strict.parse("parameters.url", url))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, "parameters.url"));
    }

    /** The two addresses of issue 18 first: loopback written as IPv4-translated and as 6to4. */
    @ParameterizedTest
    @ValueSource(strings = {"https://[::ffff:0:127.0.0.1]/", "https://[2002:7f00:1::]/"})
    void loopbackInsideAnIpv6FormIsRefused(String url) {
        assertThatThrownBy(() -> strict.parse("parameters.url", url))
                .isInstanceOf(ApiException.class)
                .hasMessage(NON_PUBLIC);
    }

    /** Every IPv6 form that carries an IPv4 address, with a non-public IPv4 address of each kind inside. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                // IPv4-mapped ::ffff:0:0/96
                "::ffff:127.0.0.1",
                "::ffff:7f00:1",
                "::ffff:10.0.0.1",
                "::ffff:172.16.0.1",
                "::ffff:192.168.1.1",
                "::ffff:169.254.169.254",
                "::ffff:100.64.0.1",
                "::ffff:224.0.0.1",
                "::ffff:0.0.0.0",
                "::ffff:192.0.2.1",
                // IPv4-translated ::ffff:0:0:0/96
                "::ffff:0:10.0.0.1",
                "::ffff:0:a9fe:a9fe",
                "::ffff:0:100.64.0.1",
                "::ffff:0:c0a8:101",
                "::ffff:0:0.0.0.0",
                "::ffff:0:239.1.1.1",
                "::ffff:0:198.18.0.1",
                // IPv4-compatible ::/96 (deprecated: refused whatever it carries)
                "::127.0.0.1",
                "::10.0.0.1",
                "::8.8.8.8",
                // 6to4 2002::/16, the IPv4 address in bits 16-47
                "2002:a00:1::",
                "2002:ac10:1::1",
                "2002:c0a8:101::",
                "2002:a9fe:a9fe::",
                "2002:6440:1::",
                "2002:e000:1::",
                "2002::",
                "2002:7f00:1:ffff::1",
                // Teredo 2001::/32: server IPv4 in bits 32-63, client IPv4 XOR-ed in the last 32 bits
                "2001:0:4136:e378:8000:63bf:80ff:fffe",
                "2001:0:4136:e378:8000:63bf:f5ff:fffe",
                "2001:0:4136:e378:8000:63bf:3f57:5efe",
                "2001:0:4136:e378:8000:63bf:9b9b:fffe",
                "2001:0:4136:e378:8000:63bf:ffff:ffff",
                "2001:0:a00:1:8000:63bf:f7f7:f7f7",
                // NAT64: the well-known 64:ff9b::/96 carries the IPv4 address; the local-use 64:ff9b:1::/48 is refused
                "64:ff9b::7f00:1",
                "64:ff9b::10.0.0.1",
                "64:ff9b::a9fe:a9fe",
                "64:ff9b::100.64.0.1",
                "64:ff9b::",
                "64:ff9b:1::808:808",
                "64:ff9b:1:ffff::1"
            })
    void everyIpv6FormOfANonPublicIpv4AddressIsRefused(String address) {
        assertThatThrownBy(() -> strict.parse("parameters.url", "https://[" + address + "]/hook"))
                .isInstanceOf(ApiException.class)
                .hasMessage(NON_PUBLIC);
    }

    /** IPv6's own non-public ranges. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "::1",
                "::",
                "fc00::1",
                "fd12:3456:789a::1",
                "fe80::1",
                "febf::1",
                "fec0::1",
                "ff02::1",
                "ff0e::101",
                "2001:db8::1",
                "3fff::1",
                "2001:2::1",
                "2001:10::1",
                "2001:20::1",
                "100::1",
                "5f00::1",
                "4000::1",
                "2001:1ff::1"
            })
    void ipv6UniqueLocalLinkLocalSiteLocalMulticastLoopbackUnspecifiedAndDocumentationAreRefused(String address) {
        assertThatThrownBy(() -> strict.parse("parameters.url", "https://[" + address + "]/"))
                .isInstanceOf(ApiException.class)
                .hasMessage(NON_PUBLIC);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://192.88.99.1/",
                "https://198.51.100.7/",
                "https://203.0.113.9/",
                "https://240.0.0.1/",
                "https://255.255.255.255/",
                "https://192.0.0.8/",
                "https://0.1.2.3/",
                "https://198.19.255.255/",
                "https://100.127.255.255/"
            })
    void reservedIpv4RangesAreRefused(String url) {
        assertThatThrownBy(() -> strict.parse("parameters.url", url))
                .isInstanceOf(ApiException.class)
                .hasMessage(NON_PUBLIC);
    }

    /** A zone names an interface of this machine; a bracketed host that is no IPv6 address is no host. */
    @ParameterizedTest
    @ValueSource(strings = {"https://[fe80::1%25eth0]/", "https://[2606:4700::1111%25eth0]/"})
    void aBracketedHostMustBeAnIpv6AddressWithoutZone(String url) {
        assertThatThrownBy(() -> strict.parse("parameters.url", url))
                .isInstanceOf(ApiException.class)
                .hasMessage("bad request body: parameters.url must name its host by a name, an IPv4 address or an "
                        + "IPv6 address without a zone");
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://[v1.fe80::1]/", "https://[hooks.example.com]/"})
    void aBracketedHostThatIsNoIpv6AddressIsNoUrl(String url) {
        assertThatThrownBy(() -> strict.parse("parameters.url", url))
                .isInstanceOf(ApiException.class)
                .hasMessage("bad request body: parameters.url is not a valid URL");
    }

    /**
     * Numeric hosts that resolvers read as addresses in their own ways: octal (leading zeros), hexadecimal, short
     * forms. java.net.URI takes a dotted quad with leading zeros as an address, and the rest as no host at all.
     */
    @ParameterizedTest
    @ValueSource(strings = {"https://0177.0.0.1/", "https://10.0.0.010/", "https://0.0.0.00/"})
    void aNumericHostMustBeAPlainDottedQuad(String url) {
        assertThatThrownBy(() -> strict.parse("parameters.url", url))
                .isInstanceOf(ApiException.class)
                .hasMessage("bad request body: parameters.url must write an IPv4 address as four decimal numbers "
                        + "without leading zeros");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://127.1/",
                "https://0x7f.0.0.1/",
                "https://1.2.3.4.5/",
                "https://256.1.1.1/",
                "https://hooks.example.0x1/"
            })
    void otherNumericFormsAreNoHostAtAll(String url) {
        assertThatThrownBy(() -> strict.parse("parameters.url", url))
                .isInstanceOf(ApiException.class)
                .hasMessage("bad request body: parameters.url must name a host");
    }

    /** The same forms carrying a public IPv4 address reach that address, and are accepted. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://[::ffff:93.184.216.34]/",
                "https://[::ffff:0:93.184.216.34]/",
                "https://[2002:5db8:d822::1]/",
                "https://[2001:0:4136:e378:8000:63bf:f7f7:f7f7]/",
                "https://[64:ff9b::5db8:d822]/",
                "https://[2a00:1450:4001:80b::200e]/"
            })
    void ipv6FormsOfPublicAddressesAreAccepted(String url) {
        assertThat(strict.parse("parameters.url", url)).isEqualTo(URI.create(url));
    }

    @Test
    void aVeryLongUrlIsRefused() {
        assertThatThrownBy(() -> strict.parse("parameters.url", "https://hooks.example.com/" + "a".repeat(2100)))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, "parameters.url"))
                .hasMessage("bad request body: parameters.url must be an absolute https URL of at most 2048 "
                        + "characters");
    }

    @Test
    void theInsecureModeAcceptsHttpAndLoopbackButStillNoUserInformation() throws Exception {
        assertThat(insecure.parse("u", "http://127.0.0.1:8080/hook")).hasHost("127.0.0.1");
        assertThat(insecure.destination(URI.create("http://127.0.0.1:8080/hook"), unreachableDns())
                        .addresses())
                .containsExactly(InetAddress.ofLiteral("127.0.0.1"));
        assertThatThrownBy(() -> insecure.parse("u", "http://a:b@127.0.0.1/"))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, "u"))
                .hasMessage("bad request body: u must not contain user information (user:password@)");
        assertThatThrownBy(() -> insecure.parse("u", "file:///etc/passwd"))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, "u"))
                .hasMessage("bad request body: u must be an https URL");
    }

    @Test
    void theInsecureModeStillResolvesOnceAndPinsWhatItGot() throws Exception {
        List<String> lookups = new ArrayList<>();
        WebhookDestination destination = insecure.destination(URI.create("http://receiver.test:9000/x"), host -> {
            lookups.add(host);
            return List.of(InetAddress.ofLiteral("127.0.0.1"));
        });
        assertThat(lookups).containsExactly("receiver.test");
        assertThat(destination)
                .isEqualTo(new WebhookDestination(
                        URI.create("http://receiver.test:9000/x"),
                        "receiver.test",
                        9000,
                        List.of(InetAddress.ofLiteral("127.0.0.1"))));
    }

    @Test
    void anAttemptResolvesTheNameOnceAndKeepsEveryAddressItChecked() throws Exception {
        List<String> lookups = new ArrayList<>();
        List<InetAddress> answer = List.of(
                InetAddress.ofLiteral("93.184.216.34"), InetAddress.ofLiteral("2606:2800:220:1:248:1893:25c8:1946"));
        WebhookDestination destination =
                strict.destination(URI.create("https://hooks.example.com:8443/a?b=c"), host -> {
                    lookups.add(host);
                    return answer;
                });
        assertThat(lookups).containsExactly("hooks.example.com");
        assertThat(destination.addresses()).isEqualTo(answer);
        assertThat(destination.host()).isEqualTo("hooks.example.com");
        assertThat(destination.port()).isEqualTo(8443);
        assertThat(strict.destination(URI.create("https://hooks.example.com/"), host -> answer)
                        .port())
                .isEqualTo(443);
    }

    @Test
    void anAttemptIsRefusedWhenAnyAddressIsNotPublic() throws Exception {
        InetAddress mappedLoopback = Inet6Address.getByAddress(
                null, new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 127, 0, 0, 1}, -1);
        for (InetAddress internal : List.of(
                InetAddress.ofLiteral("10.0.0.5"),
                mappedLoopback,
                InetAddress.ofLiteral("2002:a9fe:a9fe::1"),
                InetAddress.ofLiteral("fd00::5"))) {
            assertThatThrownBy(() -> strict.destination(
                            URI.create("https://hooks.example.com/"),
                            host -> List.of(InetAddress.ofLiteral("93.184.216.34"), internal)))
                    .as(internal.toString())
                    .isInstanceOf(RefusedDestination.class)
                    .hasMessage("the host resolves to a non-public address");
        }
    }

    @Test
    void anAttemptIsRefusedWhenTheNameDoesNotResolve() {
        assertThatThrownBy(() -> strict.destination(URI.create("https://no-such-host.example/"), host -> {
                    throw new UnknownHostException(host);
                }))
                .isInstanceOf(RefusedDestination.class)
                .hasMessage("the host does not resolve");
        assertThatThrownBy(() -> strict.destination(URI.create("https://no-such-host.example/"), host -> List.of()))
                .isInstanceOf(RefusedDestination.class)
                .hasMessage("the host does not resolve");
    }

    @Test
    void anAddressInTheUrlIsCheckedAndPinnedWithoutALookup() throws Exception {
        assertThatThrownBy(() -> strict.destination(URI.create("https://127.0.0.1/"), unreachableDns()))
                .isInstanceOf(RefusedDestination.class)
                .hasMessage("the URL must not point to a loopback, private, link-local or metadata address");
        assertThatThrownBy(() -> strict.destination(URI.create("https://[::ffff:0:127.0.0.1]/"), unreachableDns()))
                .isInstanceOf(RefusedDestination.class)
                .hasMessage("the URL must not point to a loopback, private, link-local or metadata address");
        assertThat(strict.destination(URI.create("https://[2606:4700::1111]/hook"), unreachableDns()))
                .isEqualTo(new WebhookDestination(
                        URI.create("https://[2606:4700::1111]/hook"),
                        "2606:4700::1111",
                        443,
                        List.of(InetAddress.ofLiteral("2606:4700::1111"))));
    }

    /** A resolver the test must not reach. */
    private static WebhookNetwork.Resolver unreachableDns() {
        return host -> {
            throw new AssertionError("looked up " + host);
        };
    }

    @Test
    void addressClassification() throws Exception {
        assertThat(PublicAddresses.isPublic(InetAddress.ofLiteral("8.8.8.8"))).isTrue();
        assertThat(PublicAddresses.isPublic(InetAddress.ofLiteral("2001:4860:4860::8888")))
                .isTrue();
        for (String address : new String[] {
            "127.0.0.1",
            "10.1.2.3",
            "172.31.255.255",
            "192.168.0.1",
            "169.254.169.254",
            "100.127.0.1",
            "224.0.0.1",
            "255.255.255.255",
            "192.0.2.1",
            "198.18.0.1",
            "::1",
            "fc00::1",
            "fe80::1",
            "ff02::1",
            "2001:db8::1",
            "::ffff:10.0.0.1"
        }) {
            assertThat(PublicAddresses.isPublic(InetAddress.ofLiteral(address)))
                    .as(address)
                    .isFalse();
        }
        // What a resolver may hand back: an Inet6Address holding an IPv4-mapped address (not turned into IPv4).
        assertThat(PublicAddresses.isPublic(Inet6Address.getByAddress(
                        null,
                        new byte[] {
                            0,
                            0,
                            0,
                            0,
                            0,
                            0,
                            0,
                            0,
                            0,
                            0,
                            (byte) 0xff,
                            (byte) 0xff,
                            (byte) 169,
                            (byte) 254,
                            (byte) 169,
                            (byte) 254
                        },
                        -1)))
                .isFalse();
        assertThat(PublicAddresses.isPublic(Inet6Address.getByAddress(
                        null, new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 8, 8, 8, 8}, -1)))
                .isTrue();
    }
}
