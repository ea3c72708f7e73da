package dev.keyhaven.bench;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;

/**
 * Drives load over keep-alive connections, in one of two ways:
 * <ul>
 * <li>{@link #closed}: {@code concurrency} clients each send a request, wait for its answer, and send the next.
 * This finds the peak throughput.</li>
 * <li>{@link #open}: requests are scheduled at a fixed rate, whatever the answers, and each one's latency counts
 * from its scheduled time. This measures latency at a given load without coordinated omission: a stall delays
 * every request scheduled during it, and all of them are charged for it.</li>
 * </ul>
 * In both the first {@code warmup} is not counted (the server's JIT compiles the hot paths then).
 */
final class LoadDriver {
    private final CpuMeter cpu;

    LoadDriver(CpuMeter cpu) {
        this.cpu = cpu;
    }

    /** A closed loop; every answer other than 200 (or without {@code expect} in its body, when given) is an error. */
    LoadResult closed(
            String baseUrl,
            String operation,
            String store,
            IntFunction<byte[]> requests,
            byte[] expect,
            int concurrency,
            Duration warmup,
            Duration measure)
            throws InterruptedException {
        long onDemandBefore = onDemand(requests);
        AtomicInteger next = new AtomicInteger();
        AtomicBoolean measuring = new AtomicBoolean(false);
        AtomicBoolean stop = new AtomicBoolean(false);
        AtomicLong errors = new AtomicLong();
        List<long[]> perClient = new ArrayList<>();
        List<Future<Integer>> clients = new ArrayList<>();
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int c = 0; c < concurrency; c++) {
                long[] latencies = new long[4_000_000 / concurrency];
                perClient.add(latencies);
                clients.add(executor.submit(() -> {
                    int count = 0;
                    KeepAliveConnection connection = new KeepAliveConnection(URI.create(baseUrl));
                    while (!stop.get()) {
                        byte[] request = requests.apply(next.getAndIncrement());
                        long started = System.nanoTime();
                        boolean ok = send(connection, request, expect);
                        long elapsed = System.nanoTime() - started;
                        if (measuring.get()) {
                            if (!ok) {
                                errors.incrementAndGet();
                            } else if (count < latencies.length) {
                                latencies[count++] = elapsed;
                            }
                        }
                    }
                    connection.close();
                    return count;
                }));
            }
            Thread.sleep(warmup.toMillis());
            measuring.set(true);
            CpuMeter.Snapshot cpuFrom = cpu.take();
            long started = System.nanoTime();
            Thread.sleep(measure.toMillis());
            measuring.set(false);
            double seconds = (System.nanoTime() - started) / 1e9;
            CpuMeter.Snapshot cpuTo = cpu.take();
            stop.set(true);
            int total = 0;
            List<Integer> counts = new ArrayList<>();
            for (Future<Integer> client : clients) {
                counts.add(client.get());
                total += counts.getLast();
            }
            long[] all = new long[total];
            int at = 0;
            for (int c = 0; c < concurrency; c++) {
                System.arraycopy(perClient.get(c), 0, all, at, counts.get(c));
                at += counts.get(c);
            }
            return LoadResult.closed(
                    operation,
                    store,
                    concurrency,
                    all,
                    errors.get(),
                    seconds,
                    CpuMeter.between(cpuFrom, cpuTo),
                    onDemand(requests) - onDemandBefore);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /**
     * An open loop at {@code rate} requests per second. Request {@code i} is due at {@code start + i / rate}; the
     * first free one of {@code connections} connections (each on its own platform thread, so timing does not wait
     * for a virtual-thread carrier) takes the next due request, waits for its time, and sends it. Latency is
     * answer time minus due time; only requests due within the measurement window count.
     */
    LoadResult open(
            String baseUrl,
            String operation,
            String store,
            IntFunction<byte[]> requests,
            byte[] expect,
            double rate,
            int connections,
            Duration warmup,
            Duration measure)
            throws InterruptedException {
        long onDemandBefore = onDemand(requests);
        double interval = 1e9 / rate;
        long firstMeasured = (long) Math.ceil(warmup.toNanos() / interval);
        long endSlot = (long) Math.ceil((warmup.toNanos() + measure.toNanos()) / interval);
        int measured = Math.toIntExact(endSlot - firstMeasured);
        long[] latencies = new long[measured];
        long[] lags = new long[measured];
        AtomicLong nextSlot = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        long start = System.nanoTime() + 100_000_000L;
        List<Thread> workers = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
            Thread worker = Thread.ofPlatform().daemon().name("open-loop-" + c).unstarted(() -> {
                KeepAliveConnection connection = new KeepAliveConnection(URI.create(baseUrl));
                long slot;
                while ((slot = nextSlot.getAndIncrement()) < endSlot) {
                    byte[] request = requests.apply((int) slot);
                    long due = start + (long) (slot * interval);
                    long wait;
                    while ((wait = due - System.nanoTime()) > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    long sent = System.nanoTime();
                    boolean ok = send(connection, request, expect);
                    long answered = System.nanoTime();
                    if (slot >= firstMeasured) {
                        int i = (int) (slot - firstMeasured);
                        latencies[i] = ok ? answered - due : -1;
                        lags[i] = sent - due;
                        if (!ok) {
                            errors.incrementAndGet();
                        }
                    }
                }
                connection.close();
            });
            workers.add(worker);
            worker.start();
        }
        sleepUntil(start + warmup.toNanos());
        CpuMeter.Snapshot cpuFrom = cpu.take();
        sleepUntil(start + warmup.toNanos() + measure.toNanos());
        CpuMeter.Snapshot cpuTo = cpu.take();
        for (Thread worker : workers) {
            worker.join();
        }
        long[] ok = java.util.Arrays.stream(latencies).filter(l -> l >= 0).toArray();
        // Every due request was sent (late ones too); the rate achieved is the answered ones over the window.
        return LoadResult.open(
                operation,
                store,
                connections,
                rate,
                ok,
                lags,
                errors.get(),
                measure.toNanos() / 1e9,
                CpuMeter.between(cpuFrom, cpuTo),
                onDemand(requests) - onDemandBefore);
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long wait;
        while ((wait = nanoTime - System.nanoTime()) > 0) {
            Thread.sleep(Duration.ofNanos(wait));
        }
    }

    private static long onDemand(IntFunction<byte[]> requests) {
        return requests instanceof RequestSource source ? source.madeOnDemand() : 0;
    }

    private static boolean send(KeepAliveConnection connection, byte[] request, byte[] expect) {
        try {
            return connection.send(request, expect) == 200;
        } catch (IOException e) {
            return false;
        }
    }
}
