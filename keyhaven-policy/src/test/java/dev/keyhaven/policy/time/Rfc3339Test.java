package dev.keyhaven.policy.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class Rfc3339Test {

    @ParameterizedTest
    @CsvSource({
        "2026-03-01T00:00:00Z, 2026-03-01T00:00:00Z",
        "2026-03-01T00:00:00z, 2026-03-01T00:00:00Z",
        "2026-03-01t00:00:00Z, 2026-03-01T00:00:00Z",
        "2026-03-01T00:00:00+00:00, 2026-03-01T00:00:00Z",
        "2026-03-01T00:00:00-00:00, 2026-03-01T00:00:00Z",
        "2026-03-01T12:34:56.5Z, 2026-03-01T12:34:56.500Z",
        "2026-03-01T12:34:56.123456789Z, 2026-03-01T12:34:56.123456789Z",
        "2024-02-29T23:59:59Z, 2024-02-29T23:59:59Z",
        "0000-01-01T00:00:00Z, 0000-01-01T00:00:00Z",
    })
    void acceptsUtcDateTimes(String text, String expected) {
        assertThat(Rfc3339.parseUtc(text)).isEqualTo(Instant.parse(expected));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "2026-03-01T00:00:00-05:00",
                "2026-03-01T00:00:00+01:00",
                "2026-03-01T00:00:00+00:30",
            })
    void rejectsNonZeroOffsets(String text) {
        assertThatThrownBy(() -> Rfc3339.parseUtc(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("timestamps must be in UTC");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "2026-03-01",
                "2026-03-01T00:00Z",
                "2026-03-01T00:00:00",
                "2026-03-01 00:00:00Z",
                "2026-02-29T00:00:00Z",
                "2026-13-01T00:00:00Z",
                "2026-03-01T24:00:00Z",
                "2026-03-01T23:59:60Z",
                "26-03-01T00:00:00Z",
                "+12026-03-01T00:00:00Z",
                "2026-3-1T00:00:00Z",
                "2026-03-01T00:00:00.Z",
                "2026-03-01T00:00:00.1234567890Z",
                "2026-03-01T00:00:00+0000",
                " 2026-03-01T00:00:00Z",
            })
    void rejectsWhatIsNotRfc3339(String text) {
        assertThatThrownBy(() -> Rfc3339.parseUtc(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'" + text + "' is not an RFC 3339 date-time like 2026-03-01T00:00:00Z");
    }
}
