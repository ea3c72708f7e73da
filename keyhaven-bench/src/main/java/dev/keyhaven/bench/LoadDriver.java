package dev.keyhaven.bench;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;
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
     * What an open loop sends and how fast: {@code rate} requests per second from {@code requests} to
     * {@code baseUrl} on {@code connections} connections, the first {@code warmup} not counted; an answer other than
     * 200 (or without {@code expect} in its body, when given) is an error.
     */
    record OpenLoop(
            String baseUrl,
            String operation,
            String store,
            IntFunction<byte[]> requests,
            byte[] expect,
            double rate,
            int connections,
            Duration warmup) {}

    /**
     * An open loop at {@code rate} requests per second. Request {@code i} is due at {@code start + i / rate}; the
     * first free one of {@code connections} connections (each on its own platform thread, so timing does not wait
     * for a virtual-thread carrier) takes the next due request, waits for its time, and sends it. Latency is
     * answer time minus due time; only requests due within the measurement window count.
     */
    LoadResult open(OpenLoop loop, Duration measure) throws InterruptedException {
        long onDemandBefore = onDemand(loop.requests());
        List<CpuMeter.Snapshot> cpuAt = new ArrayList<>();
        Schedule schedule = schedule(loop, List.of(measure), w -> cpuAt.add(cpu.take()));
        return schedule.window(
                0, loop, CpuMeter.between(cpuAt.get(0), cpuAt.get(1)), onDemand(loop.requests()) - onDemandBefore);
    }

    /**
     * A soak: one open loop for {@code windows} consecutive windows of {@code window} each, after the loop's warm-up;
     * a result per window, so that a latency or a memory that creeps up shows as a trend. {@code atBoundary} runs at
     * the start of the first window and at the end of each (for example to read the server's resident memory).
     */
    List<LoadResult> soak(OpenLoop loop, Duration window, int windows, Runnable atBoundary)
            throws InterruptedException {
        List<CpuMeter.Snapshot> cpuAt = new ArrayList<>();
        Schedule schedule = schedule(loop, Collections.nCopies(windows, window), w -> {
            cpuAt.add(cpu.take());
            atBoundary.run();
        });
        List<LoadResult> results = new ArrayList<>();
        for (int w = 0; w < windows; w++) {
            results.add(schedule.window(w, loop, CpuMeter.between(cpuAt.get(w), cpuAt.get(w + 1)), 0));
        }
        return results;
    }

    /**
     * What an open loop recorded, by slot (the request's place in the schedule) from the first measured one:
     * latency (-1 for an error) and how late the request left the driver.
     */
    private record Schedule(List<Duration> windows, long[] windowStartSlots, long[] latencies, long[] lags) {

        LoadResult window(int w, OpenLoop loop, CpuMeter.Usage usage, long madeOnDemand) {
            int from = (int) (windowStartSlots[w] - windowStartSlots[0]);
            int to = (int) (windowStartSlots[w + 1] - windowStartSlots[0]);
            long[] slice = Arrays.copyOfRange(latencies, from, to);
            long[] ok = Arrays.stream(slice).filter(l -> l >= 0).toArray();
            // Every due request was sent (late ones too); the rate achieved is the answered ones over the window.
            return LoadResult.open(
                    loop.operation(),
                    loop.store(),
                    loop.connections(),
                    loop.rate(),
                    ok,
                    Arrays.copyOfRange(lags, from, to),
                    slice.length - ok.length,
                    windows.get(w).toNanos() / 1e9,
                    usage,
                    madeOnDemand);
        }
    }

    /**
     * Runs the open loop: {@code warmup}, then the measured windows back to back; {@code atBoundary} is called with
     * 0 as the first window starts and with {@code w + 1} as window {@code w} ends.
     */
    private static Schedule schedule(OpenLoop loop, List<Duration> windows, IntConsumer atBoundary)
            throws InterruptedException {
        double interval = 1e9 / loop.rate();
        long[] boundaryNanos = new long[windows.size() + 1];
        boundaryNanos[0] = loop.warmup().toNanos();
        for (int w = 0; w < windows.size(); w++) {
            boundaryNanos[w + 1] = boundaryNanos[w] + windows.get(w).toNanos();
        }
        long[] windowStartSlots = new long[boundaryNanos.length];
        for (int b = 0; b < boundaryNanos.length; b++) {
            windowStartSlots[b] = (long) Math.ceil(boundaryNanos[b] / interval);
        }
        long firstMeasured = windowStartSlots[0];
        long endSlot = windowStartSlots[windows.size()];
        int measured = Math.toIntExact(endSlot - firstMeasured);
        long[] latencies = new long[measured];
        long[] lags = new long[measured];
        AtomicLong nextSlot = new AtomicLong();
        long start = System.nanoTime() + 100_000_000L;
        List<Thread> workers = new ArrayList<>();
        for (int c = 0; c < loop.connections(); c++) {
            Thread worker = Thread.ofPlatform().daemon().name("open-loop-" + c).unstarted(() -> {
                KeepAliveConnection connection = new KeepAliveConnection(URI.create(loop.baseUrl()));
                long slot;
                while ((slot = nextSlot.getAndIncrement()) < endSlot) {
                    byte[] request = loop.requests().apply((int) slot);
                    long due = start + (long) (slot * interval);
                    long wait;
                    while ((wait = due - System.nanoTime()) > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    long sent = System.nanoTime();
                    boolean ok = send(connection, request, loop.expect());
                    long answered = System.nanoTime();
                    if (slot >= firstMeasured) {
                        int i = (int) (slot - firstMeasured);
                        latencies[i] = ok ? answered - due : -1;
                        lags[i] = sent - due;
                    }
                }
                connection.close();
            });
            workers.add(worker);
            worker.start();
        }
        for (int b = 0; b < boundaryNanos.length; b++) {
            sleepUntil(start + boundaryNanos[b]);
            atBoundary.accept(b);
        }
        for (Thread worker : workers) {
            worker.join();
        }
        return new Schedule(windows, windowStartSlots, latencies, lags);
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
