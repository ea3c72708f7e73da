package dev.keyhaven.server.oauth2;

import static dev.keyhaven.server.testing.ApiErrors.isError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.oauth2.FakeOauth2Provider.Answer;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The exchange's time limit covers both requests together, and answers are bounded in size. */
class Oauth2ExchangeTest {
    private FakeOauth2Provider provider;
    private Oauth2Providers.Endpoints endpoints;

    @BeforeEach
    void start() {
        provider = FakeOauth2Provider.start();
        endpoints = new Oauth2Providers.Endpoints(provider.url("/token"), provider.url("/me"), "https://x.test");
        provider.answer("/token", Answer.json(200, "{\"token_type\":\"bearer\",\"access_token\":\"t\"}"));
        provider.answer("/me", Answer.json(200, "{\"data\":{\"id\":\"42\"}}"));
    }

    @AfterEach
    void stop() {
        provider.close();
    }

    private ApiException failure(Oauth2Exchange exchange) {
        return catchThrowableOfType(
                ApiException.class,
                () -> exchange.exchange(
                        Oauth2Provider.OAUTH2_PROVIDER_X,
                        endpoints,
                        "client",
                        "Basic eDp5",
                        new Oauth2Exchange.CodeGrant("code", "https://app/cb", "v")));
    }

    @Test
    void aProviderSlowerThanTheWholeExchangeMayTakeIsA502() {
        Oauth2Exchange exchange = new Oauth2Exchange(Duration.ofMillis(600));
        assertThat(exchange.exchange(
                                Oauth2Provider.OAUTH2_PROVIDER_X,
                                endpoints,
                                "client",
                                "Basic eDp5",
                                new Oauth2Exchange.CodeGrant("c", "https://app/cb", "v"))
                        .subject())
                .isEqualTo("42");

        // Each request alone is within the limit; together they are not.
        provider.answer(
                "/token",
                Answer.json(200, "{\"token_type\":\"bearer\",\"access_token\":\"t\"}")
                        .delayed(350));
        provider.answer("/me", Answer.json(200, "{\"data\":{\"id\":\"42\"}}").delayed(350));
        ApiException slow = failure(exchange);
        isError(ErrorCode.OAUTH2_PROVIDER_UNAVAILABLE, null).accept(slow);
        assertThat(slow.code().httpStatus()).isEqualTo(502);
        assertThat(slow.getMessage()).contains("userinfo endpoint").contains("in time");
    }

    @Test
    void anOversizedAnswerIsA502() {
        provider.answer("/token", Answer.json(200, "{\"access_token\":\"" + "a".repeat(70_000) + "\"}"));
        ApiException large = failure(new Oauth2Exchange());
        isError(ErrorCode.OAUTH2_PROVIDER_UNAVAILABLE, null).accept(large);
        assertThat(large.getMessage())
                .contains("token endpoint answered more than 65536 bytes")
                .doesNotContain("aaaa");
    }
}
