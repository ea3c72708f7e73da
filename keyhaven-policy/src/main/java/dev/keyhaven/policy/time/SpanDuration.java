package dev.keyhaven.policy.time;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The duration argument of {@code CronSpan}: whole days, hours and minutes in that order, each at most once, e.g.
 * {@code 8h}, {@code 90m}, {@code 1d12h}. As Turnkey documents, it must be more than zero and at most 7 days.
 */
public final class SpanDuration {
    public static final Duration MAX = Duration.ofDays(7);

    private static final Pattern FORMAT = Pattern.compile("(?:(\\d+)d)?(?:(\\d+)h)?(?:(\\d+)m)?");
    /** More digits than this are over MAX in any unit; capping them keeps the sum from overflowing. */
    private static final int MAX_DIGITS = 6;

    private SpanDuration() {}

    /** @throws IllegalArgumentException if {@code text} is malformed, zero, or longer than 7 days */
    public static Duration parse(String text) {
        Matcher matcher = FORMAT.matcher(text);
        if (text.isEmpty() || !matcher.matches()) {
            throw new IllegalArgumentException(
                    "'" + text + "' is not a duration of whole days, hours and minutes like 8h, 90m or 1d12h");
        }
        long minutes = part(matcher.group(1)) * 24 * 60 + part(matcher.group(2)) * 60 + part(matcher.group(3));
        Duration duration = Duration.ofMinutes(minutes);
        if (duration.isZero()) {
            throw new IllegalArgumentException("duration '" + text + "' must be more than zero");
        }
        if (duration.compareTo(MAX) > 0) {
            throw new IllegalArgumentException("duration '" + text + "' is longer than 7 days");
        }
        return duration;
    }

    private static long part(String digits) {
        if (digits == null) {
            return 0;
        }
        String significant = digits.replaceFirst("^0+(?=\\d)", "");
        return significant.length() > MAX_DIGITS ? MAX.toMinutes() + 1 : Long.parseLong(significant);
    }
}
