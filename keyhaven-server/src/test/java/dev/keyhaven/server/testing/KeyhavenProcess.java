package dev.keyhaven.server.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real {@code keyhaven.jar}, run as operators run it: {@code java -jar keyhaven.jar COMMAND ...} in a child
 * process, with this JVM's {@code java} and an environment cleared of any {@code KEYHAVEN_*} variable the test run
 * happens to have. A {@code serve} process is killed when closed, whatever happened before.
 */
public final class KeyhavenProcess implements AutoCloseable {
    private static final Duration STARTUP = Duration.ofSeconds(90);
    private static final Duration COMMAND = Duration.ofSeconds(90);
    private static final Pattern SERVING = Pattern.compile("^Keyhaven is serving on (http://\\S+)$");
    private static final Pattern ORGANIZATION = Pattern.compile("^\\s*organization id:\\s+(\\S+)");

    private final Process process;
    private final Path stderrFile;
    private final List<String> stdout = new CopyOnWriteArrayList<>();
    private final Object stdoutChanged = new Object();
    private volatile boolean stdoutEnded;

    private KeyhavenProcess(Process process, Path stderrFile) {
        this.process = process;
        this.stderrFile = stderrFile;
        Thread.ofVirtual().name("keyhaven-stdout-" + process.pid()).start(this::readStdout);
    }

    /** The jar {@code package} built (the failsafe configuration names it). */
    public static Path jar() {
        Path jar = Path.of(System.getProperty("keyhaven.jar", "target/keyhaven.jar"))
                .toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " does not exist: run the integration tests with 'mvnw verify', "
                    + "whose package phase builds it");
        }
        return jar;
    }

    /** The {@code java} launcher of this JVM: the one on the PATH may be too old for Keyhaven. */
    public static String java() {
        return ProcessHandle.current()
                .info()
                .command()
                .orElseThrow(() -> new IllegalStateException("cannot tell which java runs this JVM"));
    }

    /**
     * {@code java -jar keyhaven.jar} with this JVM's launcher and the jar's AOT cache ({@link AotCache}): the start of
     * every child of the packaged jar, its arguments to follow.
     */
    public static List<String> javaJar() {
        List<String> command = new ArrayList<>();
        command.add(java());
        command.addAll(AotCache.options(java(), jar()));
        command.addAll(List.of("-jar", jar().toString()));
        return command;
    }

    /** What a command that ran to completion printed, and its exit status. */
    public record Result(int exitCode, String stdout, String stderr) {}

    /** Runs {@code java -jar keyhaven.jar ARGS} to completion with {@code environment} added. */
    public static Result run(List<String> args, Map<String, String> environment) {
        Path out = temporaryFile("stdout");
        Path err = temporaryFile("stderr");
        Process process = start(List.of(), args, environment, ProcessBuilder.Redirect.to(out.toFile()), err);
        try {
            if (!process.waitFor(COMMAND.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException(
                        "keyhaven " + String.join(" ", args) + " did not finish within " + COMMAND);
            }
            return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            process.destroyForcibly();
            deleteQuietly(out);
            deleteQuietly(err);
        }
    }

    /**
     * Starts {@code java -jar keyhaven.jar serve ARGS} and returns once it has announced where it serves.
     *
     * @throws IllegalStateException (after killing it) when it exits or stays silent instead
     */
    public static KeyhavenProcess serve(List<String> args, Map<String, String> environment) {
        return serve(List.of(), args, environment);
    }

    /**
     * {@link #serve} with the process's file-descriptor limit lowered to {@code fileDescriptors} (soft and hard), as
     * {@code bash -c 'ulimit -n N; exec java -jar ...'} does: the JVM cannot raise it again.
     */
    public static KeyhavenProcess serveWithFileLimit(
            int fileDescriptors, List<String> args, Map<String, String> environment) {
        return serve(
                List.of("bash", "-c", "ulimit -n " + fileDescriptors + " && exec \"$@\"", "keyhaven"),
                args,
                environment);
    }

    private static KeyhavenProcess serve(List<String> launcher, List<String> args, Map<String, String> environment) {
        List<String> command = new ArrayList<>();
        command.add("serve");
        command.addAll(args);
        Path err = temporaryFile("stderr");
        KeyhavenProcess server =
                new KeyhavenProcess(start(launcher, command, environment, ProcessBuilder.Redirect.PIPE, err), err);
        try {
            server.awaitStdout(line -> ORGANIZATION.matcher(line).find(), STARTUP);
            return server;
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    private static Process start(
            List<String> launcher,
            List<String> args,
            Map<String, String> environment,
            ProcessBuilder.Redirect stdout,
            Path stderr) {
        List<String> command = new ArrayList<>(launcher);
        command.addAll(javaJar());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectOutput(stdout)
                .redirectError(stderr.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("KEYHAVEN_"));
        // No auth proxy unless a test asks for one: its default port (8090) is one port for every process.
        builder.environment().put("KEYHAVEN_AUTH_PROXY_PORT", "0");
        builder.environment().putAll(environment);
        try {
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    private void readStdout() {
        try (BufferedReader reader =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                stdout.add(line);
                synchronized (stdoutChanged) {
                    stdoutChanged.notifyAll();
                }
            }
        } catch (IOException e) {
            // The process is gone; what it printed so far is kept.
        } finally {
            stdoutEnded = true;
            synchronized (stdoutChanged) {
                stdoutChanged.notifyAll();
            }
        }
    }

    /** Waits until a line of stdout matches, and returns it. */
    public String awaitStdout(Predicate<String> wanted, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (stdoutChanged) {
            while (true) {
                for (String line : stdout) {
                    if (wanted.test(line)) {
                        return line;
                    }
                }
                long left = deadline - System.nanoTime();
                if (stdoutEnded || left <= 0) {
                    throw new IllegalStateException(
                            (stdoutEnded ? "keyhaven serve ended" : "keyhaven serve stayed " + "silent for " + timeout)
                                    + " without printing the expected line; stdout:\n"
                                    + String.join("\n", stdout) + "\nstderr:\n" + stderr());
                }
                try {
                    stdoutChanged.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
            }
        }
    }

    /** The base URL announced on stdout. */
    public String baseUrl() {
        return match(SERVING);
    }

    public int port() {
        return URI.create(baseUrl()).getPort();
    }

    /** The organization id announced on stdout. */
    public String organizationId() {
        return match(ORGANIZATION);
    }

    private String match(Pattern pattern) {
        for (String line : stdout) {
            Matcher m = pattern.matcher(line);
            if (m.find()) {
                return m.group(1);
            }
        }
        throw new IllegalStateException("stdout has no line matching " + pattern + ":\n" + String.join("\n", stdout));
    }

    /** What the process printed on stdout so far. */
    public List<String> stdout() {
        return List.copyOf(stdout);
    }

    /** What the process wrote on stderr so far (its log). */
    public String stderr() {
        try {
            return Files.readString(stderrFile);
        } catch (IOException e) {
            return "(stderr unreadable: " + e + ")";
        }
    }

    /**
     * Runs {@code step}; when it fails, the failure carries the end of the server's log, where the server's side of
     * the story is.
     */
    public void explainingFailures(Runnable step) {
        try {
            step.run();
        } catch (RuntimeException | AssertionError e) {
            List<String> log = stderr().lines().toList();
            AssertionError explained = new AssertionError(
                    e.getMessage() + "\n--- last lines of the server log:\n"
                            + String.join("\n", log.subList(Math.max(0, log.size() - 80), log.size())),
                    e);
            throw explained;
        }
    }

    public Process process() {
        return process;
    }

    /** Sends SIGKILL ({@link Process#destroyForcibly()} on Linux) and returns the exit status. */
    public int kill() {
        process.destroyForcibly();
        return awaitExit(STARTUP);
    }

    /** Sends SIGTERM ({@link Process#destroy()} on Linux); see {@link #awaitExit}. */
    public void terminate() {
        process.destroy();
    }

    /**
     * Waits for the process to exit and returns its status (128 + signal number when a signal ended it).
     *
     * @throws IllegalStateException when it is still running after {@code timeout}
     */
    public int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException(
                        "keyhaven serve still runs " + timeout + " later; stderr:\n" + stderr());
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Kills the process if it still runs. */
    @Override
    public void close() {
        try {
            if (process.isAlive()) {
                process.destroyForcibly();
                process.waitFor(STARTUP.toSeconds(), TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            deleteQuietly(stderrFile);
        }
    }

    private static Path temporaryFile(String suffix) {
        try {
            return Files.createTempFile("keyhaven-process", "." + suffix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // A leftover temporary file is not worth failing a test for.
        }
    }
}
