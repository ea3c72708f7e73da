package dev.keyhaven.server.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.server.api.ApiException;
import java.net.InetAddress;
import java.net.URI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** SSRF rules: https only, no user information, no loopback, private, link-local or metadata destinations. */
class WebhookUrlsTest {
    private final WebhookUrls strict = new WebhookUrls(false);
    private final WebhookUrls insecure = new WebhookUrls(true);

    @ParameterizedTest
    @ValueSource(strings = {"https://hooks.example.com/keyhaven", "https://hooks.example.com:8443/a?b=c",
        "https://93.184.216.34/hook", "https://[2606:4700::1111]/hook"})
    void publicHttpsUrlsAreAccepted(String url) {
        assertThat(strict.parse("parameters.url", url)).isEqualTo(URI.create(url));
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://hooks.example.com/", "ftp://hooks.example.com/", "hooks.example.com/x",
        "https://user:pw@hooks.example.com/", "https://user@hooks.example.com/", "https://localhost/",
        "https://LOCALHOST./x", "https://api.localhost/", "https://printer.local/", "https://metadata/",
        "https://metadata.google.internal/computeMetadata", "https://intranet/", "https://127.0.0.1/",
        "https://127.1/", "https://2130706433/", "https://10.0.0.1/", "https://172.16.5.4/", "https://192.168.1.1/",
        "https://169.254.169.254/latest/meta-data", "https://100.64.0.1/", "https://0.0.0.0/", "https://[::1]/",
        "https://[fd00::1]/", "https://[fe80::1]/", "https://[::ffff:127.0.0.1]/", "https://[::ffff:a9fe:a9fe]/",
        "https://[64:ff9b::a00:1]/", "https://hooks.example.com/#fragment", "https:///path", "https://",
        "https://exa mple.com/"})
    void privateOrMalformedUrlsAreRefusedNamingTheField(String url) {
        assertThatThrownBy(() -> strict.parse("parameters.url", url)).isInstanceOf(ApiException.class)
                .hasMessageContaining("parameters.url");
    }

    @Test
    void aVeryLongUrlIsRefused() {
        assertThatThrownBy(() -> strict.parse("parameters.url", "https://hooks.example.com/" + "a".repeat(2100)))
                .hasMessageContaining("2048");
    }

    @Test
    void theInsecureModeAcceptsHttpAndLoopbackButStillNoUserInformation() {
        assertThat(insecure.parse("u", "http://127.0.0.1:8080/hook")).hasHost("127.0.0.1");
        assertThat(insecure.refusalBeforeSending(URI.create("http://127.0.0.1:8080/hook"))).isEmpty();
        assertThatThrownBy(() -> insecure.parse("u", "http://a:b@127.0.0.1/")).hasMessageContaining("user");
        assertThatThrownBy(() -> insecure.parse("u", "file:///etc/passwd")).hasMessageContaining("https");
    }

    @Test
    void beforeSendingEveryResolvedAddressMustBePublic() {
        assertThat(strict.refusalBeforeSending(URI.create("https://127.0.0.1/"))).isPresent();
        assertThat(strict.refusalBeforeSending(URI.create("https://no-such-host.invalid/"))).isPresent();
    }

    @Test
    void addressClassification() throws Exception {
        assertThat(WebhookUrls.isPublic(InetAddress.getByName("8.8.8.8"))).isTrue();
        assertThat(WebhookUrls.isPublic(InetAddress.getByName("2001:4860:4860::8888"))).isTrue();
        for (String address : new String[] {"127.0.0.1", "10.1.2.3", "172.31.255.255", "192.168.0.1",
            "169.254.169.254", "100.127.0.1", "224.0.0.1", "255.255.255.255", "192.0.2.1", "198.18.0.1", "::1",
            "fc00::1", "fe80::1", "ff02::1", "2001:db8::1", "::ffff:10.0.0.1"}) {
            assertThat(WebhookUrls.isPublic(InetAddress.getByName(address))).as(address).isFalse();
        }
    }
}
