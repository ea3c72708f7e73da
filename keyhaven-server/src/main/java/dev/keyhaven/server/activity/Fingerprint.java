package dev.keyhaven.server.activity;

import dev.keyhaven.crypto.Digests;
import java.time.Instant;
import java.util.HexFormat;

/**
 * An activity's fingerprint: the request's {@code timestampMs} in 12 hex digits, then the SHA-256 of the exact request
 * body in hex (76 lowercase hex digits in all). Two submissions share a fingerprint exactly when their bodies are
 * byte-identical (the body carries its {@code timestampMs}), which is what makes resubmission idempotent and lets a
 * second user approve by stamping the same body.
 *
 * <p>The time leads so that the unique index on fingerprints grows at one end, as the other indexes of activities do.
 * A hash alone put every new activity on a random leaf of that index: one more page written per activity, and on
 * PostgreSQL a full page image of it after each checkpoint (BENCHMARKS.md, "Fingerprints that lead with the time").
 * Servers before V18 of the schema recorded the hash alone ({@link #unprefixed}); see {@code ActivityService}.
 */
public final class Fingerprint {
    /** The length of every fingerprint recorded since V18 of the schema. */
    public static final int LENGTH = 76;

    /** Twelve hex digits hold milliseconds until the year 10889. */
    private static final long TIME_LIMIT = 1L << 48;

    private Fingerprint() {}

    /** The fingerprint of {@code rawBody}, whose {@code timestampMs} is {@code requestTime}. */
    public static String of(byte[] rawBody, Instant requestTime) {
        long millis = requestTime.toEpochMilli();
        if (millis < 0 || millis >= TIME_LIMIT) {
            // SubmitEnvelope admits only times within an hour of the server's clock.
            throw new IllegalArgumentException("a request time outside 1970 to 10889 has no fingerprint");
        }
        return HexFormat.of().toHexDigits(millis, 12) + unprefixed(rawBody);
    }

    /** What servers before V18 of the schema recorded as the fingerprint of {@code rawBody}: its SHA-256 alone. */
    static String unprefixed(byte[] rawBody) {
        return HexFormat.of().formatHex(Digests.sha256(rawBody));
    }
}
