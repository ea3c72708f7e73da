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

    // At most 7 digits per part: more is always above MAX and would risk overflowing the sum.
    private static final Pattern FORMAT = Pattern.compile("(?:(\\d{1,7})d)?(?:(\\d{1,7})h)?(?:(\\d{1,7})m)?");

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
        return digits == null ? 0 : Long.parseLong(digits);
    }
}
