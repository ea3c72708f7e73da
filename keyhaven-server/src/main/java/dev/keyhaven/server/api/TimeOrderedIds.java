package dev.keyhaven.server.api;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.UUID;

/**
 * UUIDv7 identifiers (RFC 9562): 48 bits of Unix milliseconds followed by random bits. They look like the UUIDs the
 * real service hands out, and their time prefix keeps index inserts local and gives lists a natural order.
 */
public final class TimeOrderedIds implements Ids {
    private final Clock clock;
    private final SecureRandom random;

    public TimeOrderedIds(Clock clock, SecureRandom random) {
        this.clock = clock;
        this.random = random;
    }

    @Override
    public String next() {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        long millis = clock.millis();
        for (int i = 0; i < 6; i++) {
            bytes[i] = (byte) (millis >>> (8 * (5 - i)));
        }
        bytes[6] = (byte) ((bytes[6] & 0x0f) | 0x70); // version 7
        bytes[8] = (byte) ((bytes[8] & 0x3f) | 0x80); // IETF variant
        long high = 0;
        long low = 0;
        for (int i = 0; i < 8; i++) {
            high = (high << 8) | (bytes[i] & 0xff);
            low = (low << 8) | (bytes[i + 8] & 0xff);
        }
        return new UUID(high, low).toString();
    }
}
