package dev.keyhaven.server.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.server.testing.MutableClock;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class TimeOrderedIdsTest {
    @Test
    void idsAreVersion7WithTheClocksMillisecondsInFront() {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-21T00:00:00Z"));
        UUID id = UUID.fromString(new TimeOrderedIds(clock, new SecureRandom()).next());
        assertThat(id.version()).isEqualTo(7);
        assertThat(id.variant()).isEqualTo(2);
        assertThat(id.getMostSignificantBits() >>> 16).isEqualTo(clock.millis());
    }

    @Test
    void idsOfOneMillisecondSortInCreationOrder() {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-21T00:00:00Z"));
        TimeOrderedIds ids = new TimeOrderedIds(clock, new SecureRandom());
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            created.add(ids.next());
            if (i == 500) {
                clock.advance(Duration.ofMillis(1));
            }
        }
        assertThat(created).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void aClockThatStepsBackDoesNotBreakTheOrder() {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-21T00:00:00Z"));
        TimeOrderedIds ids = new TimeOrderedIds(clock, new SecureRandom());
        String before = ids.next();
        clock.advance(Duration.ofSeconds(-5));
        assertThat(ids.next()).isGreaterThan(before);
    }
}
