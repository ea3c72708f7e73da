package dev.keyhaven.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Where the machine's CPU went during a measurement, from Linux's {@code /proc}: the server process, every process
 * named {@code postgres}, this driver, kernel threads (e.g. the journal and block I/O workers behind an fsync),
 * and every other process ("other": e.g. a build running at the same time, which makes a run noisy). Per-process
 * figures are exact; the machine total comes from {@code /proc/stat}, which is sampled at each timer tick and can
 * disagree with them by a few tenths of a core when the load comes in short bursts. A process that starts and
 * exits within the measurement is missed by the per-process figures. Off Linux every figure is NaN.
 */
final class CpuMeter {
    /** USER_HZ; 100 on every Linux the project runs on ({@code getconf CLK_TCK}). */
    private static final double TICKS_PER_SECOND = 100.0;

    private final long serverPid;
    private final long driverPid = ProcessHandle.current().pid();

    CpuMeter(long serverPid) {
        this.serverPid = serverPid;
    }

    /** Cumulative CPU ticks at one moment; {@code others} and {@code kernel} per process id. */
    record Snapshot(
            long nanos,
            long machineBusy,
            long machineSteal,
            long server,
            long postgres,
            long driver,
            Map<Long, Long> kernel,
            Map<Long, Long> others) {}

    /** CPU use between two snapshots, in cores (1.0 = one core fully busy). */
    record Usage(
            double seconds,
            double machine,
            double steal,
            double server,
            double postgres,
            double driver,
            double kernel,
            double other) {
        static final Usage UNKNOWN = new Usage(
                Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);

        /** Microseconds of CPU per request of {@code cores}, at {@code throughput} requests per second. */
        static double microsPerRequest(double cores, double throughput) {
            return cores * 1e6 / throughput;
        }
    }

    Snapshot take() {
        try {
            long[] machine = machine();
            long server = 0;
            long postgres = 0;
            long driver = 0;
            Map<Long, Long> kernel = new HashMap<>();
            Map<Long, Long> others = new HashMap<>();
            try (DirectoryStream<Path> processes = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
                for (Path p : processes) {
                    long pid = Long.parseLong(p.getFileName().toString());
                    long ticks = ticks(pid);
                    if (ticks < 0) {
                        continue;
                    }
                    if (pid == serverPid) {
                        server = ticks;
                    } else if (pid == driverPid) {
                        driver = ticks;
                    } else if (isPostgres(p)) {
                        postgres += ticks;
                    } else if (isKernelThread(p)) {
                        kernel.put(pid, ticks);
                    } else {
                        others.put(pid, ticks);
                    }
                }
            }
            return new Snapshot(System.nanoTime(), machine[0], machine[1], server, postgres, driver, kernel, others);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    static Usage between(Snapshot from, Snapshot to) {
        if (from == null || to == null) {
            return Usage.UNKNOWN;
        }
        double seconds = (to.nanos() - from.nanos()) / 1e9;
        double scale = TICKS_PER_SECOND * seconds;
        return new Usage(
                seconds,
                (to.machineBusy() - from.machineBusy()) / scale,
                (to.machineSteal() - from.machineSteal()) / scale,
                (to.server() - from.server()) / scale,
                (to.postgres() - from.postgres()) / scale,
                (to.driver() - from.driver()) / scale,
                delta(from.kernel(), to.kernel()) / scale,
                delta(from.others(), to.others()) / scale);
    }

    /** Ticks used by the processes present in both snapshots. */
    private static long delta(Map<Long, Long> from, Map<Long, Long> to) {
        long total = 0;
        for (Map.Entry<Long, Long> e : to.entrySet()) {
            Long before = from.get(e.getKey());
            if (before != null && e.getValue() >= before) {
                total += e.getValue() - before;
            }
        }
        return total;
    }

    /** Busy and steal ticks of all CPUs: the first line of /proc/stat. */
    private static long[] machine() throws IOException {
        String[] f = Files.readAllLines(Path.of("/proc/stat")).getFirst().trim().split("\\s+");
        // cpu user nice system idle iowait irq softirq steal ...
        long busy = Long.parseLong(f[1])
                + Long.parseLong(f[2])
                + Long.parseLong(f[3])
                + Long.parseLong(f[6])
                + Long.parseLong(f[7]);
        return new long[] {busy, Long.parseLong(f[8])};
    }

    /** utime + stime of one process (all its threads), or -1 when it is gone. */
    private static long ticks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            // The command name is in parentheses and may hold spaces; fields 14 and 15 (utime, stime) follow it.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static boolean isPostgres(Path process) {
        try {
            return Files.readString(process.resolve("comm")).trim().equals("postgres");
        } catch (IOException | RuntimeException gone) {
            return false;
        }
    }

    /** Kernel threads have an empty command line. */
    private static boolean isKernelThread(Path process) {
        try {
            return Files.readAllBytes(process.resolve("cmdline")).length == 0;
        } catch (IOException | RuntimeException gone) {
            return false;
        }
    }
}
