package dev.keyhaven.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The server jar running as a child process, started on an empty data directory. */
final class ServerProcess implements AutoCloseable {
    private static final Pattern SERVING = Pattern.compile("serving on (http://\\S+)");
    private static final Pattern ORGANIZATION = Pattern.compile("organization id:\\s+(\\S+)");

    private final Process process;
    private final String url;
    private final String organizationId;

    private ServerProcess(Process process, String url, String organizationId) {
        this.process = process;
        this.url = url;
        this.organizationId = organizationId;
    }

    static ServerProcess start(Path jar, Path dataDirectory, List<String> extraArgs) {
        List<String> command = new ArrayList<>(List.of(javaBinary()));
        // Extra JVM options for the server, e.g. a flight recording while profiling.
        String javaOptions = System.getenv().getOrDefault("KEYHAVEN_BENCH_SERVER_JAVA_OPTS", "");
        if (!javaOptions.isBlank()) {
            command.addAll(List.of(javaOptions.trim().split("\\s+")));
        }
        command.addAll(List.of("-jar", jar.toString(), "serve", "--data-dir", dataDirectory.toString(), "--port", "0"));
        command.addAll(extraArgs);
        try {
            Process process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String url = null;
            String organization = null;
            String line;
            while ((url == null || organization == null) && (line = out.readLine()) != null) {
                Matcher serving = SERVING.matcher(line);
                Matcher org = ORGANIZATION.matcher(line);
                if (serving.find()) {
                    url = serving.group(1);
                }
                if (org.find()) {
                    organization = org.group(1);
                }
            }
            if (url == null || organization == null) {
                process.destroyForcibly();
                throw new IllegalStateException("the server did not start: " + command);
            }
            // Its own thread: on the common pool this would hold that pool's only worker on a 2-core machine for
            // the whole run, and the parallel stamping of requests would run on one core.
            Thread.ofPlatform()
                    .daemon()
                    .name("server-stdout")
                    .start(() -> out.lines().forEach(ignored -> {}));
            return new ServerProcess(process, url, organization);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String javaBinary() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    long pid() {
        return process.pid();
    }

    /** The server's resident memory in MiB (VmRSS in {@code /proc/PID/status}), or NaN off Linux or when it is gone. */
    double residentMebibytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid() + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    // "VmRSS:     123456 kB"
                    return Long.parseLong(line.substring(6).trim().split("\\s+")[0]) / 1024.0;
                }
            }
        } catch (IOException | RuntimeException gone) {
            // NaN below
        }
        return Double.NaN;
    }

    String url() {
        return url;
    }

    String organizationId() {
        return organizationId;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
