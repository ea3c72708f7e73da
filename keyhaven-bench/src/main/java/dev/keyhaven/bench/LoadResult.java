package dev.keyhaven.bench;

import java.util.Arrays;
import java.util.Locale;

/** Throughput and latency percentiles of one measured run. */
record LoadResult(String operation, String store, int concurrency, long requests, long errors, double seconds,
        long[] sortedLatenciesNanos) {

    double throughput() {
        return requests / seconds;
    }

    double percentileMillis(double p) {
        if (sortedLatenciesNanos.length == 0) {
            return Double.NaN;
        }
        int index = (int) Math.min(sortedLatenciesNanos.length - 1, Math.ceil(p / 100.0 * sortedLatenciesNanos.length) - 1);
        return sortedLatenciesNanos[Math.max(0, index)] / 1e6;
    }

    static LoadResult of(String operation, String store, int concurrency, long[] latencies, long errors,
            double seconds) {
        long[] sorted = latencies.clone();
        Arrays.sort(sorted);
        return new LoadResult(operation, store, concurrency, sorted.length, errors, seconds, sorted);
    }

    String markdownRow() {
        return String.format(Locale.ROOT, "| %s | %s | %d | %,.0f | %.2f | %.2f | %.2f | %d |", operation, store,
                concurrency, throughput(), percentileMillis(50), percentileMillis(90), percentileMillis(99), errors);
    }

    static String markdownHeader() {
        return "| operation | store | concurrency | req/s | p50 ms | p90 ms | p99 ms | errors |\n"
                + "|---|---|---:|---:|---:|---:|---:|---:|";
    }
}
