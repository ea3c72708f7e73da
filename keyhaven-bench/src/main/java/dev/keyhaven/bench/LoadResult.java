package dev.keyhaven.bench;

import java.util.Arrays;
import java.util.Locale;

/**
 * Throughput and latency percentiles of one measured run.
 *
 * @param mode {@code closed} (each client sends its next request when the previous one is answered: measures peak
 *     throughput) or {@code open} (requests scheduled at a fixed rate whatever the answers: measures latency at a
 *     given load; latencies count from the scheduled time, so a request queued behind slow ones is charged for the
 *     wait)
 * @param concurrency clients (closed) or connections available to the schedule (open)
 * @param targetRate the scheduled rate of an open run, NaN for a closed one
 * @param sortedDispatchLagNanos open runs: how late each request left the driver after its scheduled time (all
 *     connections busy, or the driver itself late); empty for closed runs
 * @param madeOnDemand requests the driver had to stamp during the run because too few were prepared
 */
record LoadResult(
        String operation,
        String store,
        String mode,
        int concurrency,
        double targetRate,
        long requests,
        long errors,
        double seconds,
        long[] sortedLatenciesNanos,
        long[] sortedDispatchLagNanos,
        CpuMeter.Usage cpu,
        long madeOnDemand) {

    double throughput() {
        return requests / seconds;
    }

    double percentileMillis(double p) {
        return percentileMillis(sortedLatenciesNanos, p);
    }

    static double percentileMillis(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int index = (int) Math.min(sorted.length - 1, Math.ceil(p / 100.0 * sorted.length) - 1);
        return sorted[Math.max(0, index)] / 1e6;
    }

    static LoadResult closed(
            String operation,
            String store,
            int concurrency,
            long[] latencies,
            long errors,
            double seconds,
            CpuMeter.Usage cpu,
            long madeOnDemand) {
        return new LoadResult(
                operation,
                store,
                "closed",
                concurrency,
                Double.NaN,
                latencies.length,
                errors,
                seconds,
                sorted(latencies),
                new long[0],
                cpu,
                madeOnDemand);
    }

    static LoadResult open(
            String operation,
            String store,
            int connections,
            double targetRate,
            long[] latencies,
            long[] dispatchLags,
            long errors,
            double seconds,
            CpuMeter.Usage cpu,
            long madeOnDemand) {
        return new LoadResult(
                operation,
                store,
                "open",
                connections,
                targetRate,
                latencies.length,
                errors,
                seconds,
                sorted(latencies),
                sorted(dispatchLags),
                cpu,
                madeOnDemand);
    }

    private static long[] sorted(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted;
    }

    String markdownRow() {
        return String.format(
                Locale.ROOT,
                "| %s | %s | %d | %,.0f | %.2f | %.2f | %.2f | %d |",
                operation,
                store,
                concurrency,
                throughput(),
                percentileMillis(50),
                percentileMillis(90),
                percentileMillis(99),
                errors);
    }

    static String markdownHeader() {
        return "| operation | store | concurrency | req/s | p50 ms | p90 ms | p99 ms | errors |\n"
                + "|---|---|---:|---:|---:|---:|---:|---:|";
    }

    /** One row of the CPU table: where each request's CPU went, and how much of the machine others used. */
    String cpuRow() {
        double rate = throughput();
        String load = mode.equals("open")
                ? String.format(Locale.ROOT, "open %,.0f/s", targetRate)
                : "closed c=" + concurrency;
        return String.format(
                Locale.ROOT,
                "| %s | %s | %s | %,.0f | %.2f | %.0f | %.0f | %.0f | %.0f | %.2f | %.2f | %s |",
                operation,
                store,
                load,
                rate,
                cpu.machine(),
                CpuMeter.Usage.microsPerRequest(cpu.server(), rate),
                CpuMeter.Usage.microsPerRequest(cpu.postgres(), rate),
                CpuMeter.Usage.microsPerRequest(cpu.kernel(), rate),
                CpuMeter.Usage.microsPerRequest(cpu.driver(), rate),
                cpu.other(),
                cpu.steal(),
                madeOnDemand == 0 ? "" : madeOnDemand + " stamped on demand");
    }

    static String cpuHeader() {
        return "| operation | store | load | req/s | machine cores busy | server µs/req | postgres µs/req "
                + "| kernel threads µs/req | driver µs/req | other processes, cores | steal cores | notes |\n"
                + "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|";
    }
}
