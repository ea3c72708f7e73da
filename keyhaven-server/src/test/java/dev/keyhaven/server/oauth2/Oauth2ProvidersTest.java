package dev.keyhaven.server.oauth2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The providers file: entries replace the real endpoints they name; every invalid entry is refused by number. */
class Oauth2ProvidersTest {
    @TempDir
    Path directory;

    private Path file(String json) throws IOException {
        return Files.writeString(directory.resolve("providers.json"), json);
    }

    @Test
    void theDefaultsAreTheRealEndpoints() {
        assertThat(Oauth2Providers.DEFAULT.of(Oauth2Provider.OAUTH2_PROVIDER_X))
                .isEqualTo(new Oauth2Providers.Endpoints(
                        URI.create("https://api.x.com/2/oauth2/token"),
                        URI.create("https://api.x.com/2/users/me"),
                        "https://x.com"));
        assertThat(Oauth2Providers.DEFAULT.of(Oauth2Provider.OAUTH2_PROVIDER_DISCORD))
                .isEqualTo(new Oauth2Providers.Endpoints(
                        URI.create("https://discord.com/api/oauth2/token"),
                        URI.create("https://discord.com/api/users/@me"),
                        "https://discord.com"));
    }

    @Test
    void anEntryReplacesItsProviderAndKeepsTheDefaultIssuerUnlessItNamesOne() throws IOException {
        Oauth2Providers read = Oauth2Providers.read(file("""
                [{"provider": "OAUTH2_PROVIDER_DISCORD", "tokenEndpoint": "http://127.0.0.1:9/token",
                  "userinfoEndpoint": "http://127.0.0.1:9/me"}]"""));
        assertThat(read.of(Oauth2Provider.OAUTH2_PROVIDER_DISCORD))
                .isEqualTo(new Oauth2Providers.Endpoints(
                        URI.create("http://127.0.0.1:9/token"),
                        URI.create("http://127.0.0.1:9/me"),
                        "https://discord.com"));
        assertThat(read.of(Oauth2Provider.OAUTH2_PROVIDER_X))
                .isEqualTo(Oauth2Providers.DEFAULT.of(Oauth2Provider.OAUTH2_PROVIDER_X));
        Oauth2Providers withIssuer = Oauth2Providers.read(file("""
                [{"provider": "OAUTH2_PROVIDER_X", "tokenEndpoint": "https://x.test/t",
                  "userinfoEndpoint": "https://x.test/u", "issuer": "https://issuer.test"}]"""));
        assertThat(withIssuer.of(Oauth2Provider.OAUTH2_PROVIDER_X).issuer()).isEqualTo("https://issuer.test");
    }

    @Test
    void invalidFilesAndEntriesAreRefusedNamingTheEntry() throws IOException {
        String good = "{\"provider\": \"OAUTH2_PROVIDER_X\", \"tokenEndpoint\": \"https://x.test/t\", "
                + "\"userinfoEndpoint\": \"https://x.test/u\"}";
        assertRefused("not json", "cannot read");
        assertRefused(good, "must hold a JSON array");
        assertRefused("[" + good + ", 3]", "entry 1", "must be an object");
        assertRefused("[" + good + ", " + good + "]", "entry 1", "a second time");
        assertRefused(
                "[" + good.replace("OAUTH2_PROVIDER_X", "OAUTH2_PROVIDER_GITHUB") + "]",
                "entry 0",
                "OAUTH2_PROVIDER_GITHUB");
        assertRefused("[" + good.replace("https://x.test/t", "ftp://x.test/t") + "]", "entry 0", "tokenEndpoint");
        assertRefused("[" + good.replace("https://x.test/u", "/relative") + "]", "entry 0", "userinfoEndpoint");
        assertRefused("[" + good.replace("\"userinfoEndpoint\"", "\"userInfo\"") + "]", "entry 0", "userInfo");
        assertRefused("[" + good.replace("}", ", \"issuer\": \"\"}") + "]", "entry 0", "issuer");
        assertThatThrownBy(() -> Oauth2Providers.read(directory.resolve("missing.json")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("missing.json");
    }

    private void assertRefused(String json, String... expected) throws IOException {
        Path file = file(json);
        assertThatThrownBy(() -> Oauth2Providers.read(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll(expected);
    }
}
