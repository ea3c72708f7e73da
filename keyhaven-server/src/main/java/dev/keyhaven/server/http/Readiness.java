package dev.keyhaven.server.http;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Whether the database answers, as readiness probes see it. However often probes come, on however many listeners,
 * the database is asked by one check at a time and at most once per {@link #FRESH_FOR} after the last one ended, so
 * health checks cannot load it; and a probe waits at most {@link #WAIT_AT_MOST} for a check under way (a database
 * that does not answer by then is reported unreachable), so a load balancer's probe gets an answer in time.
 */
public final class Readiness {
    static final Duration FRESH_FOR = Duration.ofSeconds(1);
    static final Duration WAIT_AT_MOST = Duration.ofSeconds(2);

    private final BooleanSupplier databaseAnswers;
    private final LongSupplier nanoTime;
    private CompletableFuture<Boolean> check;
    private volatile long freshUntilNanos;

    /** @param databaseAnswers a cheap query against the database, bounded in time by the pool's timeout */
    public Readiness(BooleanSupplier databaseAnswers) {
        this(databaseAnswers, System::nanoTime);
    }

    Readiness(BooleanSupplier databaseAnswers, LongSupplier nanoTime) {
        this.databaseAnswers = databaseAnswers;
        this.nanoTime = nanoTime;
    }

    /** Whether the database answered its latest check, checking again when that one is no longer fresh. */
    boolean databaseAnswers() {
        CompletableFuture<Boolean> current;
        synchronized (this) {
            if (check == null || (check.isDone() && nanoTime.getAsLong() - freshUntilNanos > 0)) {
                check = CompletableFuture.supplyAsync(
                        this::ask,
                        task -> Thread.ofVirtual().name("keyhaven-readiness").start(task));
            }
            current = check;
        }
        try {
            return current.get(WAIT_AT_MOST.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private boolean ask() {
        try {
            return databaseAnswers.getAsBoolean();
        } finally {
            freshUntilNanos = nanoTime.getAsLong() + FRESH_FOR.toNanos();
        }
    }
}
