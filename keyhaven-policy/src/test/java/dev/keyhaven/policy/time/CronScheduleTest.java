package dev.keyhaven.policy.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CronScheduleTest {
    // 2026-03-02 is a Monday, 2026-03-01 a Sunday.
    private static final LocalDate SUNDAY_1ST = LocalDate.of(2026, 3, 1);
    private static final LocalDate MONDAY_2ND = LocalDate.of(2026, 3, 2);
    private static final LocalDate SATURDAY_7TH = LocalDate.of(2026, 3, 7);
    private static final LocalDate MONDAY_9TH = LocalDate.of(2026, 3, 9);

    @Test
    void weekdaysRangeIsMondayToFridayWithSundayZero() {
        CronSchedule weekdays = CronSchedule.parse("0 9 * * 1-5");
        assertThat(weekdays.matchesDate(MONDAY_2ND)).isTrue();
        assertThat(weekdays.matchesDate(LocalDate.of(2026, 3, 6))).isTrue();
        assertThat(weekdays.matchesDate(SATURDAY_7TH)).isFalse();
        assertThat(weekdays.matchesDate(SUNDAY_1ST)).isFalse();
        assertThat(CronSchedule.parse("0 9 * * 0").matchesDate(SUNDAY_1ST)).isTrue();
        assertThat(CronSchedule.parse("0 9 * * 6").matchesDate(SATURDAY_7TH)).isTrue();
    }

    @Test
    void dayOfMonthAndDayOfWeekAreOredWhenBothAreRestricted() {
        CronSchedule firstOrMonday = CronSchedule.parse("0 9 1 * 1");
        assertThat(firstOrMonday.matchesDate(SUNDAY_1ST)).isTrue();
        assertThat(firstOrMonday.matchesDate(MONDAY_9TH)).isTrue();
        assertThat(firstOrMonday.matchesDate(SATURDAY_7TH)).isFalse();
        // With one of them '*', only the other one restricts.
        assertThat(CronSchedule.parse("0 9 1 * *").matchesDate(MONDAY_9TH)).isFalse();
        assertThat(CronSchedule.parse("0 9 * * 1").matchesDate(SUNDAY_1ST)).isFalse();
    }

    @Test
    void monthsListsAndRanges() {
        CronSchedule quarterStarts = CronSchedule.parse("0 0 1 1,4,7,10 *");
        assertThat(quarterStarts.matchesDate(LocalDate.of(2026, 4, 1))).isTrue();
        assertThat(quarterStarts.matchesDate(LocalDate.of(2026, 5, 1))).isFalse();
        CronSchedule summer = CronSchedule.parse("0 0 * 6-8 *");
        assertThat(summer.matchesDate(LocalDate.of(2026, 7, 15))).isTrue();
        assertThat(summer.matchesDate(LocalDate.of(2026, 9, 1))).isFalse();
        assertThat(CronSchedule.parse("0 0 29 2 *").matchesDate(LocalDate.of(2024, 2, 29)))
                .isTrue();
    }

    @Test
    void latestAllowedHourAndMinute() {
        CronSchedule schedule = CronSchedule.parse("5,30-32 9-11,22 * * *");
        assertThat(schedule.hourAtOrBefore(23)).isEqualTo(22);
        assertThat(schedule.hourAtOrBefore(21)).isEqualTo(11);
        assertThat(schedule.hourAtOrBefore(10)).isEqualTo(10);
        assertThat(schedule.hourAtOrBefore(8)).isEqualTo(-1);
        assertThat(schedule.hourAtOrBefore(-1)).isEqualTo(-1);
        assertThat(schedule.minuteAtOrBefore(59)).isEqualTo(32);
        assertThat(schedule.minuteAtOrBefore(29)).isEqualTo(5);
        assertThat(schedule.minuteAtOrBefore(4)).isEqualTo(-1);
        assertThat(CronSchedule.parse("* * * * *").minuteAtOrBefore(59)).isEqualTo(59);
        assertThat(CronSchedule.parse("0 0 * * *").minuteAtOrBefore(0)).isEqualTo(0);
        assertThat(schedule).hasToString("5,30-32 9-11,22 * * *");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            */5 * * * *      | minute field '*/5': step values are not supported
            0 9-17/2 * * *   | hour field '9-17/2': step values are not supported
            0 9 * * MON      | day-of-week field: 'MON' is not a number from 0 to 6
            0 9 * JAN *      | month field: 'JAN' is not a number from 1 to 12
            0 9 * * 7        | day-of-week value 7 is outside 0-6
            60 9 * * *       | minute value 60 is outside 0-59
            0 24 * * *       | hour value 24 is outside 0-23
            0 9 0 * *        | day-of-month value 0 is outside 1-31
            0 9 32 * *       | day-of-month value 32 is outside 1-31
            0 9 * 13 *       | month value 13 is outside 1-12
            0 9 * * 5-1      | day-of-week range '5-1' runs backwards
            0 9,,10 * * *    | hour field: '' is not a number from 0 to 23
            0 9- * * *       | hour field: '' is not a number from 0 to 23
            0 -9 * * *       | hour field: '' is not a number from 0 to 23
            0 009 * * *      | hour field: '009' is not a number from 0 to 23
            0 ? * * *        | hour field: '?' is not a number from 0 to 23
            """)
    void rejectsWhatTheSubsetDoesNotHave(String expression, String message) {
        assertThatThrownBy(() -> CronSchedule.parse(expression))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            @daily      | 1
            0 0 9 * * * | 6
            0 9 * *     | 4
            ''          | 0
            '  '        | 0
            """)
    void rejectsAnythingButFiveFields(String expression, int fields) {
        assertThatThrownBy(() -> CronSchedule.parse(expression))
                .hasMessage("cron expression '" + expression + "' has " + fields
                        + " fields; expected 5 (minute hour day-of-month month day-of-week)");
    }
}
