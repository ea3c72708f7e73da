package dev.keyhaven.server.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.server.user.UserLimits;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyhavenConfigTest {
    private static final Path DATA = Path.of("/tmp/keyhaven-config");

    @Test
    void theBuilderStartsFromTheDefaults() {
        KeyhavenConfig config = KeyhavenConfig.builder(DATA).build();
        assertThat(config.host()).isEqualTo("127.0.0.1");
        assertThat(config.port()).isEqualTo(8080);
        assertThat(config.maxBodyBytes()).isEqualTo(KeyhavenConfig.DEFAULT_MAX_BODY_BYTES);
        assertThat(config.databaseUrl()).isEmpty();
        assertThat(config.limits().usersPerOrganization()).isEqualTo(100);
        assertThat(config.shutdownGrace()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void aBadValueIsRefusedAtOnceNamingTheOption() {
        KeyhavenConfig.Builder builder = KeyhavenConfig.builder(DATA);
        assertThatThrownBy(() -> builder.port(65536))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("port must be 0 to 65535: 65536");
        assertThatThrownBy(() -> builder.port(-1)).hasMessage("port must be 0 to 65535: -1");
        assertThatThrownBy(() -> builder.maxBodyBytes(0)).hasMessage("maxBodyBytes must be at least 1: 0");
        assertThatThrownBy(() -> builder.databasePoolSize(-2))
                .hasMessage("databasePoolSize must be 0 (the store's default) or more: -2");
        assertThatThrownBy(() -> builder.host(" ")).hasMessage("host must not be blank");
        assertThatThrownBy(() -> builder.shutdownGrace(Duration.ofSeconds(-1)))
                .hasMessage("shutdownGrace must not be negative: PT-1S");
        assertThatThrownBy(() -> builder.mail(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("mail");
    }

    @Test
    void withChangesOneOptionAndKeepsTheRest() {
        KeyhavenConfig original =
                KeyhavenConfig.builder(DATA).port(9000).host("0.0.0.0").build();
        KeyhavenConfig changed = original.withMaxBodyBytes(2048);
        assertThat(changed.maxBodyBytes()).isEqualTo(2048);
        assertThat(changed.port()).isEqualTo(9000);
        assertThat(changed.host()).isEqualTo("0.0.0.0");
        assertThat(original.maxBodyBytes()).isEqualTo(KeyhavenConfig.DEFAULT_MAX_BODY_BYTES);
        assertThat(changed.dataDirectory()).isEqualTo(DATA);
    }

    @Test
    void listsAreCopiedSoTheCallerCannotChangeThemLater() {
        List<String> origins = new ArrayList<>(List.of("https://a.example"));
        KeyhavenConfig config =
                KeyhavenConfig.builder(DATA).webAuthnOrigins(origins).build();
        origins.add("https://b.example");
        assertThat(config.webAuthnOrigins()).containsExactly("https://a.example");
    }

    @Test
    void userLimitsNameTheLimitBelowOne() {
        UserLimits.Builder builder = UserLimits.builder();
        assertThatThrownBy(() -> builder.usersPerOrganization(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("usersPerOrganization must be at least 1: 0");
        assertThatThrownBy(() -> builder.tagsPerSubOrganization(-3))
                .hasMessage("tagsPerSubOrganization must be at least 1: -3");
        UserLimits limits =
                UserLimits.DEFAULT.toBuilder().usersPerOrganization(7).build();
        assertThat(limits.usersPerOrganization()).isEqualTo(7);
        assertThat(limits.tagsPerOrganization()).isEqualTo(UserLimits.DEFAULT.tagsPerOrganization());
    }
}
