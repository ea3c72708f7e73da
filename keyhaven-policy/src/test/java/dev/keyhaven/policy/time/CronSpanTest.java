package dev.keyhaven.policy.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class CronSpanTest {
    private static final CronSpan BUSINESS_HOURS = CronSpan.parse("0 9 * * 1-5", "8h", "America/New_York");
    private static final CronSpan OVERNIGHT = CronSpan.parse("0 22 * * *", "8h", "America/New_York");

    @Test
    void businessHoursAreNineToFiveOnWeekdaysInNewYork() {
        // Tuesday 2026-01-13, EST (UTC-5): 9:00 = 14:00Z, 17:00 = 22:00Z.
        assertThat(BUSINESS_HOURS.contains(at("2026-01-13T13:59:59Z"))).isFalse();
        assertThat(BUSINESS_HOURS.contains(at("2026-01-13T14:00:00Z"))).isTrue(); // the fire itself is inside
        assertThat(BUSINESS_HOURS.contains(at("2026-01-13T18:30:00Z"))).isTrue();
        assertThat(BUSINESS_HOURS.contains(at("2026-01-13T21:59:59.999Z"))).isTrue();
        assertThat(BUSINESS_HOURS.contains(at("2026-01-13T22:00:00Z"))).isFalse(); // the end is outside
        // Saturday 2026-01-17 at noon, and Friday 16:59 vs 17:00.
        assertThat(BUSINESS_HOURS.contains(at("2026-01-17T17:00:00Z"))).isFalse();
        assertThat(BUSINESS_HOURS.contains(at("2026-01-16T21:59:00Z"))).isTrue();
        assertThat(BUSINESS_HOURS.contains(at("2026-01-16T22:00:00Z"))).isFalse();
    }

    @Test
    void theFireFollowsDaylightSavingTime() {
        // Tuesday 2026-07-14, EDT (UTC-4): 9:00 = 13:00Z.
        assertThat(BUSINESS_HOURS.contains(at("2026-07-14T13:00:00Z"))).isTrue();
        assertThat(BUSINESS_HOURS.contains(at("2026-07-14T12:59:00Z"))).isFalse();
        assertThat(BUSINESS_HOURS.contains(at("2026-07-14T20:59:00Z"))).isTrue();
        assertThat(BUSINESS_HOURS.contains(at("2026-07-14T21:00:00Z"))).isFalse();
    }

    @Test
    void windowsCrossMidnight() {
        // Wednesday 2026-01-14 22:00 EST = 03:00Z on the 15th, until 06:00 EST = 11:00Z.
        assertThat(OVERNIGHT.contains(at("2026-01-15T02:59:00Z"))).isFalse();
        assertThat(OVERNIGHT.contains(at("2026-01-15T03:00:00Z"))).isTrue();
        assertThat(OVERNIGHT.contains(at("2026-01-15T05:00:00Z"))).isTrue(); // midnight local
        assertThat(OVERNIGHT.contains(at("2026-01-15T10:59:00Z"))).isTrue();
        assertThat(OVERNIGHT.contains(at("2026-01-15T11:00:00Z"))).isFalse();
    }

    @Test
    void theDurationIsElapsedTimeSoTheLocalEndShiftsOnTransitionNights() {
        // Spring forward (2026-03-08 02:00 EST -> 03:00 EDT): the window opened at 22:00 EST ends at 7:00 EDT = 11:00Z.
        assertThat(OVERNIGHT.contains(at("2026-03-08T10:59:00Z"))).isTrue();
        assertThat(OVERNIGHT.contains(at("2026-03-08T11:00:00Z"))).isFalse();
        // Fall back (2026-11-01 02:00 EDT -> 01:00 EST): opened at 22:00 EDT = 02:00Z, ends at 5:00 EST = 10:00Z.
        assertThat(OVERNIGHT.contains(at("2026-11-01T09:59:00Z"))).isTrue();
        assertThat(OVERNIGHT.contains(at("2026-11-01T10:00:00Z"))).isFalse();
    }

    @Test
    void aLocalTimeSkippedBySpringForwardFiresAsLateAsTheGap() {
        CronSpan halfPastTwo = CronSpan.parse("30 2 * * *", "10m", "America/New_York");
        // 2026-03-08 02:30 does not exist in New York; it fires at 03:30 EDT = 07:30Z.
        assertThat(halfPastTwo.contains(at("2026-03-08T07:25:00Z"))).isFalse();
        assertThat(halfPastTwo.contains(at("2026-03-08T07:30:00Z"))).isTrue();
        assertThat(halfPastTwo.contains(at("2026-03-08T07:39:59Z"))).isTrue();
        assertThat(halfPastTwo.contains(at("2026-03-08T07:40:00Z"))).isFalse();
    }

    @Test
    void aLocalTimeRepeatedByFallBackFiresAtBothOccurrences() {
        // 2026-11-01 01:30 happens at 05:30Z (EDT) and again at 06:30Z (EST).
        CronSpan halfPastOne = CronSpan.parse("30 1 * * *", "30m", "America/New_York");
        assertThat(halfPastOne.contains(at("2026-11-01T05:29:00Z"))).isFalse();
        assertThat(halfPastOne.contains(at("2026-11-01T05:45:00Z"))).isTrue();
        assertThat(halfPastOne.contains(at("2026-11-01T06:10:00Z"))).isFalse();
        assertThat(halfPastOne.contains(at("2026-11-01T06:45:00Z"))).isTrue();
        assertThat(halfPastOne.contains(at("2026-11-01T07:00:00Z"))).isFalse();
        // At 01:10 EST (06:10Z) the wall clock reads earlier than 01:30, yet the first fire (05:30Z) has happened.
        CronSpan hourLong = CronSpan.parse("30 1 * * *", "1h", "America/New_York");
        assertThat(hourLong.contains(at("2026-11-01T06:10:00Z"))).isTrue();
        assertThat(hourLong.contains(at("2026-11-01T07:29:00Z"))).isTrue();
        assertThat(hourLong.contains(at("2026-11-01T07:30:00Z"))).isFalse();
    }

    @Test
    void schedulesThatCoverEveryHourStayActiveThroughTransitions() {
        CronSpan hourly = CronSpan.parse("0 * * * *", "1h", "America/New_York");
        assertActiveThroughout(hourly, at("2026-03-08T04:00:00Z"), at("2026-03-08T10:00:00Z"));
        assertActiveThroughout(hourly, at("2026-11-01T03:00:00Z"), at("2026-11-01T09:00:00Z"));
    }

    @Test
    void zonesWithHalfHourOffsets() {
        CronSpan kolkata = CronSpan.parse("0 9 * * *", "1h", "Asia/Kolkata"); // UTC+5:30
        assertThat(kolkata.contains(at("2026-05-05T03:29:00Z"))).isFalse();
        assertThat(kolkata.contains(at("2026-05-05T03:30:00Z"))).isTrue();
        assertThat(kolkata.contains(at("2026-05-05T04:30:00Z"))).isFalse();
    }

    @Test
    void windowsUpToSevenDaysLong() {
        // The 1st of each month at 00:00 UTC, for 7 days.
        CronSpan firstWeek = CronSpan.parse("0 0 1 * *", "7d", "UTC");
        assertThat(firstWeek.contains(at("2026-03-07T23:59:59Z"))).isTrue();
        assertThat(firstWeek.contains(at("2026-03-08T00:00:00Z"))).isFalse();
        assertThat(firstWeek.contains(at("2026-02-28T23:59:59Z"))).isFalse();
        assertThat(firstWeek.contains(at("2026-03-01T00:00:00Z"))).isTrue();
        // A schedule that never fires (31 February) is never active.
        assertThat(CronSpan.parse("0 0 31 2 *", "7d", "UTC").contains(at("2026-03-03T00:00:00Z")))
                .isFalse();
    }

    @Test
    void everyMinuteForAMinuteIsAlwaysActive() {
        CronSpan always = CronSpan.parse("* * * * *", "1m", "Europe/Berlin");
        for (String now : new String[] {
            "2026-03-29T00:59:59Z",
            "2026-03-29T01:00:00Z",
            "2026-10-25T00:30:00Z",
            "2026-10-25T01:30:00Z",
            "0000-01-01T00:00:00Z",
            "9999-12-31T23:59:59Z"
        }) {
            assertThat(always.contains(at(now))).as(now).isTrue();
        }
    }

    @Test
    void rejectsUnknownZonesAndOtherZoneSpellings() {
        for (String zone : new String[] {"Mars/Olympus_Mons", "+05:00", "GMT+1", "EST5EDT ", "america/new_york", ""}) {
            assertThatThrownBy(() -> CronSpan.parse("0 9 * * *", "8h", zone))
                    .as(zone)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("'" + zone + "' is not an IANA time zone name like America/New_York");
        }
        assertThat(CronSpan.parse("0 9 * * *", "8h", "Etc/UTC").zone()).isEqualTo("Etc/UTC");
    }

    @Test
    void rejectsDurationsOverSevenDays() {
        assertThatThrownBy(() -> CronSpan.parse("0 9 * * *", "7d1m", "UTC"))
                .hasMessage("duration '7d1m' is longer than 7 days");
    }

    @Test
    void printsAsWritten() {
        assertThat(BUSINESS_HOURS).hasToString("CronSpan('0 9 * * 1-5', '8h', 'America/New_York')");
    }

    private static void assertActiveThroughout(CronSpan span, Instant from, Instant to) {
        for (Instant now = from; now.isBefore(to); now = now.plusSeconds(60)) {
            assertThat(span.contains(now)).as(now.toString()).isTrue();
        }
    }

    private static Instant at(String text) {
        return Instant.parse(text);
    }
}
