package dev.keyhaven.bench;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * A closed loop: {@code concurrency} clients each send a request, wait for its answer, and send the next. The first
 * {@code warmup} is not counted (the server's JIT compiles the hot paths then).
 */
final class LoadDriver {
    LoadResult run(String baseUrl, String operation, String store, IntFunction<byte[]> requests,
            int concurrency, Duration warmup, Duration measure) throws InterruptedException {
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
                        boolean ok = send(connection, request);
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
            long started = System.nanoTime();
            Thread.sleep(measure.toMillis());
            measuring.set(false);
            double seconds = (System.nanoTime() - started) / 1e9;
            stop.set(true);
            List<Long> all = new ArrayList<>();
            for (int c = 0; c < concurrency; c++) {
                int count = clients.get(c).get();
                long[] latencies = perClient.get(c);
                for (int i = 0; i < count; i++) {
                    all.add(latencies[i]);
                }
            }
            return LoadResult.of(operation, store, concurrency, all.stream().mapToLong(Long::longValue).toArray(),
                    errors.get(), seconds);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    private static boolean send(KeepAliveConnection connection, byte[] request) {
        try {
            return connection.send(request) == 200;
        } catch (IOException e) {
            return false;
        }
    }
}
