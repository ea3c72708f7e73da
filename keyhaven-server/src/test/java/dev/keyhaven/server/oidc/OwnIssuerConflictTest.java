package dev.keyhaven.server.oidc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import dev.keyhaven.server.app.Keyhaven;
import dev.keyhaven.server.app.KeyhavenConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keyhaven trusts the tokens oauth2_authenticate mints under each OAuth 2.0 provider's issuer. An operator's issuers
 * file naming one of those issuers too would make two key sets answer for one {@code iss}: the server refuses to
 * start, saying which.
 */
class OwnIssuerConflictTest {
    @TempDir
    Path directory;

    @Test
    void anIssuerKeyhavenMintsForCannotAlsoBeConfigured() throws Exception {
        Path keys = directory.resolve("x-keys.json");
        Files.writeString(
                keys,
                new JWKSet(new ECKeyGenerator(Curve.P_256).keyID("k").generate().toPublicJWK()).toString());
        // https://x.com is the default issuer of the tokens Keyhaven mints for OAUTH2_PROVIDER_X.
        KeyhavenConfig config = KeyhavenConfig.defaults(directory.resolve("data"))
                .withOidcIssuers(List.of(
                        new IssuerConfig("https://x.com", Optional.empty(), Optional.of(keys), List.of("app"))));
        Files.createDirectories(config.dataDirectory());
        assertThatThrownBy(() -> Keyhaven.open(config, Clock.systemUTC()).close())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("https://x.com is in --oidc-issuers")
                .hasMessageContaining("--oauth2-providers");
    }
}
