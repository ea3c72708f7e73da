package dev.keyhaven.policy.time;

import java.time.LocalDate;

/**
 * A 5-field cron expression, {@code minute hour day-of-month month day-of-week}, in the strict subset Turnkey
 * documents for {@code CronSpan}: numbers, ranges ({@code 1-5}), lists ({@code 1,3,5}) and {@code *}; day-of-week
 * {@code 0-6} with 0 = Sunday. Steps ({@code *}{@code /n}), macros ({@code @daily}), names ({@code MON}) and a
 * seconds field are rejected, as Turnkey rejects them.
 *
 * <p>As in classic cron, when both day-of-month and day-of-week are restricted (neither is {@code *}) a day matches
 * if <em>either</em> matches.
 *
 * <p>Each field is a bit mask (bit n set = value n allowed); all five fit in a {@code long}, which keeps the
 * schedule immutable and the matching branch-free.
 */
public final class CronSchedule {
    private static final Field MINUTE = new Field("minute", 0, 59);
    private static final Field HOUR = new Field("hour", 0, 23);
    private static final Field DAY_OF_MONTH = new Field("day-of-month", 1, 31);
    private static final Field MONTH = new Field("month", 1, 12);
    private static final Field DAY_OF_WEEK = new Field("day-of-week", 0, 6);

    private final String expression;
    private final long minutes;
    private final long hours;
    private final long daysOfMonth;
    private final long months;
    private final long daysOfWeek;
    private final boolean dayOfMonthRestricted;
    private final boolean dayOfWeekRestricted;

    private CronSchedule(String expression, String[] fields) {
        this.expression = expression;
        this.minutes = MINUTE.parse(fields[0]);
        this.hours = HOUR.parse(fields[1]);
        this.daysOfMonth = DAY_OF_MONTH.parse(fields[2]);
        this.months = MONTH.parse(fields[3]);
        this.daysOfWeek = DAY_OF_WEEK.parse(fields[4]);
        this.dayOfMonthRestricted = !fields[2].equals("*");
        this.dayOfWeekRestricted = !fields[4].equals("*");
    }

    /** @throws IllegalArgumentException naming the field and value that are not in the supported subset */
    public static CronSchedule parse(String expression) {
        String trimmed = expression.strip();
        String[] fields = trimmed.isEmpty() ? new String[0] : trimmed.split("[ \t]+");
        if (fields.length != 5) {
            throw new IllegalArgumentException("cron expression '" + expression + "' has " + fields.length
                    + " fields; expected 5 (minute hour day-of-month month day-of-week)");
        }
        return new CronSchedule(expression, fields);
    }

    /** Whether the schedule fires on some minute of {@code date}. */
    public boolean matchesDate(LocalDate date) {
        if (!has(months, date.getMonthValue())) {
            return false;
        }
        boolean dayOfMonth = has(daysOfMonth, date.getDayOfMonth());
        boolean dayOfWeek = has(daysOfWeek, date.getDayOfWeek().getValue() % 7);
        if (dayOfMonthRestricted && dayOfWeekRestricted) {
            return dayOfMonth || dayOfWeek;
        }
        return dayOfMonth && dayOfWeek;
    }

    /** The latest allowed hour at or before {@code hour}, or -1 if there is none. */
    public int hourAtOrBefore(int hour) {
        return highestAtOrBelow(hours, hour);
    }

    /** The latest allowed minute at or before {@code minute}, or -1 if there is none. */
    public int minuteAtOrBefore(int minute) {
        return highestAtOrBelow(minutes, minute);
    }

    @Override
    public String toString() {
        return expression;
    }

    private static boolean has(long mask, int value) {
        return (mask & (1L << value)) != 0;
    }

    private static int highestAtOrBelow(long mask, int value) {
        if (value < 0) {
            return -1;
        }
        long allowed = mask & (-1L >>> (63 - value));
        return 63 - Long.numberOfLeadingZeros(allowed);
    }

    /** One field's name and range, and the parsing of its text into a mask. */
    private record Field(String name, int min, int max) {

        long parse(String text) {
            long mask = 0;
            for (String item : text.split(",", -1)) {
                mask |= parseItem(item);
            }
            return mask;
        }

        private long parseItem(String item) {
            if (item.equals("*")) {
                return range(min, max);
            }
            if (item.contains("/")) {
                throw new IllegalArgumentException(name + " field '" + item + "': step values are not supported");
            }
            int dash = item.indexOf('-');
            if (dash < 0) {
                int value = number(item);
                return range(value, value);
            }
            int from = number(item.substring(0, dash));
            int to = number(item.substring(dash + 1));
            if (from > to) {
                throw new IllegalArgumentException(name + " range '" + item + "' runs backwards");
            }
            return range(from, to);
        }

        private int number(String digits) {
            if (digits.isEmpty() || digits.length() > 2 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new IllegalArgumentException(
                        name + " field: '" + digits + "' is not a number from " + min + " to " + max);
            }
            int value = Integer.parseInt(digits);
            if (value < min || value > max) {
                throw new IllegalArgumentException(name + " value " + value + " is outside " + min + "-" + max);
            }
            return value;
        }

        private static long range(int from, int to) {
            return (-1L >>> (63 - to)) & (-1L << from);
        }
    }
}
