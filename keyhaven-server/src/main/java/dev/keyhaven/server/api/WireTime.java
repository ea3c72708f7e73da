package dev.keyhaven.server.api;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The {@code {"seconds": "...", "nanos": "..."}} timestamp object of stored resources (both members strings, as
 * protobuf JSON writes 64-bit integers).
 */
public record WireTime(String seconds, String nanos) {

    public static WireTime of(Instant instant) {
        return new WireTime(Long.toString(instant.getEpochSecond()), Integer.toString(instant.getNano()));
    }

    /** Instants as Keyhaven stores them: microsecond precision, which both stores keep exactly. */
    public static Instant truncate(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MICROS);
    }
}
