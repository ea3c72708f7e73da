package dev.keyhaven.server.authproxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.server.app.OtpSettings;
import dev.keyhaven.server.testing.StoreKind;
import dev.keyhaven.server.testing.TestServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * The auth proxy's OAuth sign-ins and sign-ups are unstamped, and each may call a provider or create a sub-organization: they are
 * counted per client address, whatever their outcome, and refused with 429 and {@code Retry-After} past the limit.
 * (The count is in memory, so one store shows it.)
 */
class OauthSignInRateLimitIT {
    private static final String EXCHANGE = "{\"provider\":\"OAUTH2_PROVIDER_X\",\"clientId\":\"unknown\","
            + "\"authCode\":\"c\",\"redirectUri\":\"https://app.example/cb\",\"codeVerifier\":\"v\",\"nonce\":\"n\"}";
    private static final String LOGIN = "{\"oidcToken\":\"not-a-token\",\"publicKey\":\"02" + "11".repeat(32) + "\"}";

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void signInsFromOneAddressAreLimitedWhateverTheyAnswer() throws Exception {
        try (TestServer server = TestServer.start(
                StoreKind.SQLITE,
                config -> config.withOtp(OtpSettings.defaults()
                        .withAuthProxyPort(OptionalInt.of(0))
                        .withRateLimits(5, 3, Duration.ofMinutes(15))),
                Clock.systemUTC())) {
            String config = server.keyhaven().authProxyConfigs().isEmpty()
                    ? server.keyhaven().createDefaultAuthProxyConfig(server.organizationId())
                    : server.keyhaven().authProxyConfigs().getFirst().id();
            assertThat(post(server, config, "/v1/oauth2_authenticate", EXCHANGE).statusCode())
                    .isEqualTo(404);
            assertThat(post(server, config, "/v1/oauth_login", LOGIN).statusCode())
                    .isEqualTo(400);
            assertThat(post(server, config, "/v1/oauth2_authenticate", EXCHANGE).statusCode())
                    .isEqualTo(404);
            HttpResponse<String> limited = post(server, config, "/v1/oauth_login", LOGIN);
            assertThat(limited.statusCode()).isEqualTo(429);
            assertThat(limited.headers().firstValue("Retry-After")).isPresent();
            assertThat(limited.body()).contains("too many sign-in requests for this client address");
            assertThat(post(server, config, "/v1/oauth2_authenticate", EXCHANGE).statusCode())
                    .isEqualTo(429);
            // A sign-up counts against the same allowance.
            assertThat(post(server, config, "/v1/signup_v2", "{}").statusCode()).isEqualTo(429);
        }
    }

    private HttpResponse<String> post(TestServer server, String config, String path, String body) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(server.authProxyUrl() + path))
                        .header("Content-Type", "application/json")
                        .header("X-Auth-Proxy-Config-ID", config)
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
