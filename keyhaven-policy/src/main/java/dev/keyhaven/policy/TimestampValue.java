package dev.keyhaven.policy;

import java.time.Instant;
import java.util.Objects;

/**
 * {@code timestamp}: the type of {@code time.now} and of {@code Timestamp('<rfc3339>')}. The range is what RFC 3339
 * can write, years 0000 to 9999, which also keeps every calendar computation on it (CronSpan) within the JDK's range.
 */
public record TimestampValue(Instant instant) implements Value {
    public static final Instant MIN = Instant.parse("0000-01-01T00:00:00Z");
    public static final Instant MAX = Instant.parse("9999-12-31T23:59:59.999999999Z");

    /** @throws IllegalArgumentException outside [{@link #MIN}, {@link #MAX}] */
    public TimestampValue {
        Objects.requireNonNull(instant, "instant");
        if (instant.isBefore(MIN) || instant.isAfter(MAX)) {
            throw new IllegalArgumentException("timestamp outside years 0000-9999: " + instant);
        }
    }

    @Override
    public String typeName() {
        return "timestamp";
    }
}
