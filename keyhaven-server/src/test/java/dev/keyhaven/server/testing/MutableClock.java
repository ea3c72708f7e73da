package dev.keyhaven.server.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock tests move forward by hand, so that expiry is tested without sleeping: frozen at an instant, or
 * {@link #ticking()}, the system clock plus what the test added (successive submissions then get distinct
 * {@code timestampMs}, which a frozen clock would make identical, and so one idempotent activity).
 */
public final class MutableClock extends Clock {
    private final AtomicReference<Instant> now;
    private final boolean ticks;
    private final AtomicReference<Duration> shift = new AtomicReference<>(Duration.ZERO);

    public MutableClock(Instant start) {
        this(start, false);
    }

    private MutableClock(Instant start, boolean ticks) {
        this.now = new AtomicReference<>(start);
        this.ticks = ticks;
    }

    public static MutableClock startingNow() {
        return new MutableClock(Instant.now());
    }

    /** The system clock, moved forward by every {@link #advance}. */
    public static MutableClock ticking() {
        return new MutableClock(Instant.EPOCH, true);
    }

    public void advance(Duration duration) {
        if (ticks) {
            shift.updateAndGet(s -> s.plus(duration));
        } else {
            now.updateAndGet(t -> t.plus(duration));
        }
    }

    @Override
    public Instant instant() {
        return ticks ? Instant.now().plus(shift.get()) : now.get();
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
