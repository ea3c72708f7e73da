package dev.keyhaven.policy.time;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.chrono.IsoChronology;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;

/**
 * RFC 3339 date-times with a zero UTC offset, the argument of {@code Timestamp(…)}. As Turnkey documents, the offset
 * may be written {@code Z}, {@code z}, {@code +00:00} or {@code -00:00}; any other offset is rejected so that a
 * timestamp in a policy always reads as UTC.
 */
public final class Rfc3339 {
    // RFC 3339 §5.6: a four-digit year, seconds required, optional fraction, 'T' and 'Z' in either case.
    private static final DateTimeFormatter FORMAT = new DateTimeFormatterBuilder()
            .parseCaseInsensitive()
            .appendValue(ChronoField.YEAR, 4)
            .appendLiteral('-')
            .appendValue(ChronoField.MONTH_OF_YEAR, 2)
            .appendLiteral('-')
            .appendValue(ChronoField.DAY_OF_MONTH, 2)
            .appendLiteral('T')
            .appendValue(ChronoField.HOUR_OF_DAY, 2)
            .appendLiteral(':')
            .appendValue(ChronoField.MINUTE_OF_HOUR, 2)
            .appendLiteral(':')
            .appendValue(ChronoField.SECOND_OF_MINUTE, 2)
            .optionalStart()
            .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
            .optionalEnd()
            .appendOffset("+HH:MM", "Z")
            .toFormatter()
            .withChronology(IsoChronology.INSTANCE)
            .withResolverStyle(ResolverStyle.STRICT);

    private Rfc3339() {}

    /** @throws IllegalArgumentException if {@code text} is not RFC 3339 or its offset is not zero */
    public static Instant parseUtc(String text) {
        OffsetDateTime dateTime;
        try {
            dateTime = OffsetDateTime.parse(text, FORMAT);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not an RFC 3339 date-time like 2026-03-01T00:00:00Z");
        }
        if (!dateTime.getOffset().equals(ZoneOffset.UTC)) {
            throw new IllegalArgumentException(
                    "'" + text + "' has offset " + dateTime.getOffset() + "; timestamps must be in UTC (Z or +00:00)");
        }
        return dateTime.toInstant();
    }
}
