package dev.keyhaven.server.oidc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The trusted-issuers file: what it accepts, and the entry-naming refusals that stop the server from starting. */
class IssuersFileTest {
    private static final Optional<Path> DIR = Optional.of(Path.of("/etc/keyhaven"));

    @Test
    void readsUrlAndFileEntries() {
        List<IssuerConfig> issuers = IssuersFile.parse("""
                [{"issuer": "https://accounts.google.com", "jwksUri": "https://www.googleapis.com/oauth2/v3/certs",
                  "audiences": ["app-1", "app-2"]},
                 {"issuer": "http://idp.internal", "jwksFile": "idp.jwks.json", "audiences": ["app-3"]}]
                """, DIR);
        assertThat(issuers)
                .containsExactly(
                        new IssuerConfig(
                                "https://accounts.google.com",
                                Optional.of(URI.create("https://www.googleapis.com/oauth2/v3/certs")),
                                Optional.empty(),
                                List.of("app-1", "app-2")),
                        new IssuerConfig(
                                "http://idp.internal",
                                Optional.empty(),
                                Optional.of(Path.of("/etc/keyhaven/idp.jwks.json")),
                                List.of("app-3")));
    }

    @Test
    void anEmptyArrayTrustsNoIssuer() {
        assertThat(IssuersFile.parse("[]", DIR)).isEmpty();
    }

    @Test
    void refusesWithAMessageNamingTheEntry() {
        assertRefused("{}", "must hold a JSON array");
        assertRefused("[1", "not valid JSON");
        assertRefused("[\"x\"]", "entry 0: must be a JSON object");
        assertRefused("[{\"jwksUri\": \"https://a/jwks\", \"audiences\": [\"a\"]}]", "entry 0: issuer is required");
        assertRefused(
                "[{\"issuer\": \"https://a\", \"audiences\": [\"a\"]}]",
                "entry 0 (https://a): needs exactly one of jwksUri and jwksFile");
        assertRefused(
                "[{\"issuer\": \"https://a\", \"jwksUri\": \"https://a/j\", \"jwksFile\": \"j\", "
                        + "\"audiences\": [\"a\"]}]",
                "entry 0 (https://a): needs exactly one of jwksUri and jwksFile");
        assertRefused(
                "[{\"issuer\": \"https://a\", \"jwksUri\": \"https://a/j\", \"audiences\": []}]",
                "entry 0 (https://a): audiences must be a non-empty array");
        assertRefused(
                "[{\"issuer\": \"https://a\", \"jwksUri\": \"https://a/j\"}]",
                "entry 0 (https://a): audiences must be a non-empty array");
        assertRefused(
                "[{\"issuer\": \"https://a\", \"jwksUri\": \"https://a/j\", \"audiences\": [\"a\"], "
                        + "\"clientSecret\": \"x\"}]",
                "entry 0: unknown field clientSecret");
        assertRefused(
                "[{\"issuer\": \"https://a\", \"jwksUri\": \"ftp://a/j\", \"audiences\": [\"a\"]}]",
                "entry 0 (https://a): jwksUri must be an http(s) URL");
        assertRefused(
                "[{\"issuer\": \"https://a\", \"jwksUri\": \"https://a/j\", \"audiences\": [\"a\"]},"
                        + "{\"issuer\": \"https://a\", \"jwksUri\": \"https://b/j\", \"audiences\": [\"b\"]}]",
                "entry 1: issuer https://a is listed twice");
    }

    @Test
    void aJwksFileThatIsNoJwkSetIsRefusedAtStartUp() {
        IssuerConfig config = new IssuerConfig(
                "https://a", Optional.empty(), Optional.of(Path.of("/nonexistent.json")), List.of("a"));
        assertThatThrownBy(() -> TrustedIssuer.of(config))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("OIDC issuer https://a: jwksFile /nonexistent.json is not a readable JWK set");
    }

    private static void assertRefused(String text, String message) {
        assertThatThrownBy(() -> IssuersFile.parse(text, DIR))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }
}
