package dev.keyhaven.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the machine's CPU went during a measurement, from Linux's {@code /proc}: the server process, every process
 * named {@code postgres}, this driver, and the rest ("other": anything else on the machine, e.g. a build, which
 * makes a run noisy). Off Linux every figure is NaN.
 */
final class CpuMeter {
    /** USER_HZ; 100 on every Linux the project runs on ({@code getconf CLK_TCK}). */
    private static final double TICKS_PER_SECOND = 100.0;

    private final long serverPid;

    CpuMeter(long serverPid) {
        this.serverPid = serverPid;
    }

    /** Cumulative CPU ticks at one moment. */
    record Snapshot(long nanos, long machineBusy, long machineSteal, long server, long postgres, long driver) {
    }

    /** CPU use between two snapshots, in cores (1.0 = one core fully busy). */
    record Usage(double seconds, double machine, double steal, double server, double postgres, double driver) {
        static final Usage UNKNOWN = new Usage(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN);

        /** Busy time not accounted for by the server, PostgreSQL or the driver. */
        double other() {
            return machine - server - postgres - driver;
        }

        /** Microseconds of CPU per request of {@code cores}, at {@code throughput} requests per second. */
        static double microsPerRequest(double cores, double throughput) {
            return cores * 1e6 / throughput;
        }
    }

    Snapshot take() {
        try {
            long[] machine = machine();
            return new Snapshot(System.nanoTime(), machine[0], machine[1], process(serverPid), postgres(),
                    process(ProcessHandle.current().pid()));
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
        return new Usage(seconds, (to.machineBusy() - from.machineBusy()) / scale,
                (to.machineSteal() - from.machineSteal()) / scale, (to.server() - from.server()) / scale,
                (to.postgres() - from.postgres()) / scale, (to.driver() - from.driver()) / scale);
    }

    /** Busy and steal ticks of all CPUs: the first line of /proc/stat. */
    private static long[] machine() throws IOException {
        String[] f = Files.readAllLines(Path.of("/proc/stat")).getFirst().trim().split("\\s+");
        // cpu user nice system idle iowait irq softirq steal ...
        long busy = Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]) + Long.parseLong(f[6])
                + Long.parseLong(f[7]);
        return new long[] {busy, Long.parseLong(f[8])};
    }

    /** utime + stime of one process (all its threads), or 0 when it is gone. */
    private static long process(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            // The command name is in parentheses and may hold spaces; fields 14 and 15 (utime, stime) follow it.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static long postgres() throws IOException {
        long total = 0;
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path p : processes) {
                try {
                    if (Files.readString(p.resolve("comm")).trim().equals("postgres")) {
                        total += process(Long.parseLong(p.getFileName().toString()));
                    }
                } catch (IOException | RuntimeException gone) {
                    // The process exited while being read.
                }
            }
        }
        return total;
    }
}
