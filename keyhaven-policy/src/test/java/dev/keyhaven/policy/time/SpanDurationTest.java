package dev.keyhaven.policy.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SpanDurationTest {

    @ParameterizedTest
    @CsvSource({
        "8h, PT8H", "90m, PT90M", "1d12h, PT36H", "1d2h30m, PT26H30M", "7d, PT168H", "6d23h60m, PT168H",
        "1m, PT1M", "0d0h1m, PT1M", "168h, PT168H", "10080m, PT168H", "2d5m, PT48H5M", "0000000000001h, PT1H",
    })
    void acceptsWholeDaysHoursAndMinutes(String text, Duration expected) {
        assertThat(SpanDuration.parse(text)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"7d1m", "8d", "169h", "10081m", "9999999d", "99999999d"})
    void rejectsMoreThanSevenDays(String text) {
        assertThatThrownBy(() -> SpanDuration.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("longer than 7 days");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0m", "0d", "0d0h0m"})
    void rejectsZero(String text) {
        assertThatThrownBy(() -> SpanDuration.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("duration '" + text + "' must be more than zero");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "8", "h", "1.5h", "30m1h", "1h1h", "30s", "1w", "8H", " 8h", "8h ", "-1h", "1d 2h"})
    void rejectsOtherSpellings(String text) {
        assertThatThrownBy(() -> SpanDuration.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not a duration of whole days, hours and minutes");
    }
}
