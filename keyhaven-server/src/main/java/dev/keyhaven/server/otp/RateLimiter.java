package dev.keyhaven.server.otp;

import dev.keyhaven.server.api.ApiException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * At most {@code limit} events per key in any sliding {@code window}, counted in this process (each server of a
 * cluster counts its own). Keys whose last event is older than the window are dropped as the map grows.
 */
public final class RateLimiter {
    private static final int PRUNE_AT = 50_000;

    private final int limit;
    private final Duration window;
    private final Clock clock;
    private final String counted;
    private final Map<String, Deque<Instant>> events = new ConcurrentHashMap<>();

    /** A limiter of one-time-password requests. */
    public RateLimiter(int limit, Duration window, Clock clock) {
        this(limit, window, clock, "one-time-password requests");
    }

    /** @param counted what is counted, for the 429's message ("sign-in requests") */
    public RateLimiter(int limit, Duration window, Clock clock, String counted) {
        this.limit = limit;
        this.window = window;
        this.clock = clock;
        this.counted = counted;
    }

    /**
     * Counts one event for {@code key}.
     *
     * @throws ApiException 429 (with the seconds until a slot frees) when the key is at its limit
     */
    public void acquire(String key, String what) {
        Instant now = clock.instant();
        Instant horizon = now.minus(window);
        if (events.size() > PRUNE_AT) {
            events.entrySet().removeIf(e -> {
                synchronized (e.getValue()) {
                    return e.getValue().isEmpty() || !e.getValue().peekLast().isAfter(horizon);
                }
            });
        }
        Deque<Instant> times = events.computeIfAbsent(key, k -> new ArrayDeque<>());
        synchronized (times) {
            while (!times.isEmpty() && !times.peekFirst().isAfter(horizon)) {
                times.pollFirst();
            }
            if (times.size() >= limit) {
                long wait = Math.max(
                        1, Duration.between(now, times.peekFirst().plus(window)).toSeconds() + 1);
                throw ApiException.rateLimited("too many " + counted + " for this " + what, wait);
            }
            times.addLast(now);
        }
    }
}
