package dev.keyhaven.server.webauthn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.webauthn4j.data.client.Origin;
import java.util.List;
import org.junit.jupiter.api.Test;

class AllowedOriginsTest {

    @Test
    void aStarAllowsEveryOrigin() {
        AllowedOrigins origins = AllowedOrigins.of(List.of("*"));

        assertThat(origins.isAny()).isTrue();
        assertThat(origins.allows(new Origin("https://anything.example"))).isTrue();
        assertThat(origins.allows(new Origin("http://localhost:3000"))).isTrue();
    }

    @Test
    void aListAllowsExactlyItsOrigins() {
        AllowedOrigins origins = AllowedOrigins.of(List.of("https://app.example.com", " http://localhost:3000 "));

        assertThat(origins.isAny()).isFalse();
        assertThat(origins.allows(new Origin("https://app.example.com"))).isTrue();
        assertThat(origins.allows(new Origin("https://APP.example.com:443"))).isTrue();
        assertThat(origins.allows(new Origin("http://localhost:3000"))).isTrue();
        assertThat(origins.allows(new Origin("https://example.com"))).isFalse();
        assertThat(origins.allows(new Origin("http://app.example.com"))).isFalse();
        assertThat(origins.allows(new Origin("http://localhost:3001"))).isFalse();
        assertThat(origins.allows(null)).isFalse();
    }

    @Test
    void aStarAnywhereInTheListAllowsEveryOrigin() {
        assertThat(AllowedOrigins.of(List.of("https://app.example.com", "*")).isAny())
                .isTrue();
        assertThat(AllowedOrigins.of(List.of()).isAny()).isTrue();
    }

    @Test
    void refusesSomethingThatIsNotAnOrigin() {
        assertThatThrownBy(() -> AllowedOrigins.of(List.of("https://app.example.com/login")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("app.example.com/login");
        assertThatThrownBy(() -> AllowedOrigins.of(List.of("app.example.com")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
