package dev.keyhaven.server.api;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.UUID;

/**
 * UUIDv7 identifiers (RFC 9562): 48 bits of Unix milliseconds, then 74 bits that are random for the first id of a
 * millisecond and counted up from there for the ids that follow within it (the RFC's monotonic method). Ids of one
 * server therefore sort in creation order, which lists rely on for a stable order of rows created together; they
 * also look like the UUIDs the real service hands out, and keep index inserts local.
 */
public final class TimeOrderedIds implements Ids {
    private static final int COUNTER_BITS = 74;
    private static final BigInteger COUNTER_LIMIT = BigInteger.ONE.shiftLeft(COUNTER_BITS);

    private final Clock clock;
    private final SecureRandom random;
    private long lastMillis = -1;
    private BigInteger lastCounter = BigInteger.ZERO;

    public TimeOrderedIds(Clock clock, SecureRandom random) {
        this.clock = clock;
        this.random = random;
    }

    @Override
    public String next() {
        long millis;
        BigInteger counter;
        synchronized (this) {
            millis = clock.millis();
            if (millis > lastMillis) {
                // A fresh random start leaves half the counter space for ids later in the same millisecond.
                counter = new BigInteger(COUNTER_BITS - 1, random);
            } else {
                millis = lastMillis;
                counter = lastCounter.add(BigInteger.ONE);
                if (counter.equals(COUNTER_LIMIT)) {
                    millis++;
                    counter = BigInteger.ZERO;
                }
            }
            lastMillis = millis;
            lastCounter = counter;
        }
        long randA = counter.shiftRight(62).longValue() & 0xfff;
        long randB = counter.longValue() & 0x3fff_ffff_ffff_ffffL;
        long high = (millis << 16) | 0x7000L | randA;
        long low = 0x8000_0000_0000_0000L | randB;
        return new UUID(high, low).toString();
    }
}
