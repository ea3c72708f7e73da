package dev.keyhaven.server.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The system clock moved forward by hand: it keeps ticking (so successive submissions get distinct
 * {@code timestampMs}, unlike with {@link MutableClock}), and a test jumps it past an expiry without sleeping.
 */
public final class ShiftedClock extends Clock {
    private final AtomicReference<Duration> shift = new AtomicReference<>(Duration.ZERO);

    public void advance(Duration duration) {
        shift.updateAndGet(s -> s.plus(duration));
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(shift.get());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
