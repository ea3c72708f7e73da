package dev.keyhaven.server.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * Node.js for the suites that drive JavaScript (the npm interop suite, the console's browser flows): finding
 * {@code node} and {@code npm}, {@code npm ci} when a package directory is stale, and child processes whose output is
 * copied into the test's log. A missing tool skips the suite loudly, or fails it when {@code KEYHAVEN_REQUIRE_NODE=1}
 * (CI).
 */
public final class NodeTools {
    private static final Duration NPM_CI = Duration.ofMinutes(5);
    /** The file in {@code node_modules/} naming the lock file the packages were installed from (its SHA-256). */
    static final String INSTALLED_FROM = ".keyhaven-installed-from";

    private final String suite;

    /** Tools for {@code suite}, the name skip and failure messages give. */
    public NodeTools(String suite) {
        this.suite = suite;
    }

    /** An executable named {@code name} on the PATH. */
    public Path tool(String name) {
        return find(name)
                .orElseGet(() -> unavailable("'" + name + "' is not on the PATH (" + System.getenv("PATH") + ")"));
    }

    /** {@code node} on the PATH, version 20 or newer. */
    public Path node() throws IOException, InterruptedException {
        Path node = tool("node");
        tooOld(node).ifPresent(this::unavailable);
        return node;
    }

    /** An executable named {@code name} on the PATH, if there is one. */
    public static Optional<Path> find(String name) {
        String path = Optional.ofNullable(System.getenv("PATH")).orElse("");
        return Arrays.stream(path.split(File.pathSeparator))
                .filter(d -> !d.isBlank())
                .map(d -> Path.of(d, name))
                .filter(f -> Files.isRegularFile(f) && Files.isExecutable(f))
                .findFirst();
    }

    /** Why {@code node} will not do (it is older than 20), or empty. */
    public static Optional<String> tooOld(Path node) throws IOException, InterruptedException {
        Process version = new ProcessBuilder(node.toString(), "--version")
                .redirectErrorStream(true)
                .start();
        String text = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        version.waitFor(30, TimeUnit.SECONDS);
        Matcher major = Pattern.compile("^v(\\d+)\\.").matcher(text);
        if (!major.find() || Integer.parseInt(major.group(1)) < 20) {
            return Optional.of(node + " is '" + text + "'; node 20 or newer is needed");
        }
        return Optional.empty();
    }

    /** Skips loudly, or fails when {@code KEYHAVEN_REQUIRE_NODE=1}; never returns. */
    public <T> T unavailable(String reason) {
        if ("1".equals(System.getenv("KEYHAVEN_REQUIRE_NODE"))) {
            return fail(suite + " cannot run: " + reason + ", and KEYHAVEN_REQUIRE_NODE=1");
        }
        System.err.println("!!! SKIPPING " + suite + ": " + reason + " (set KEYHAVEN_REQUIRE_NODE=1 to fail instead)");
        return Assumptions.abort("SKIPPED LOUDLY: " + suite + ": " + reason);
    }

    /** The directory of the repository root's {@code name/package.json}, found above the working directory. */
    public static Path packageDirectory(String name) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(name).resolve("package.json"))) {
                return dir.resolve(name);
            }
        }
        throw new IllegalStateException(
                "no " + name + "/package.json above " + Path.of("").toAbsolutePath());
    }

    /**
     * {@code npm ci} in {@code directory} unless its packages were installed from this very lock file: the install
     * leaves the lock file's SHA-256 in {@code node_modules/}{@value #INSTALLED_FROM}. By content, not by age, so that
     * {@code .ci/run} can hand a clean clone the packages it installed for the same lock file before (its cache).
     */
    public void installPackagesIfStale(Path directory) throws IOException, InterruptedException {
        String lock = lockHash(directory);
        Path installedFrom = directory.resolve("node_modules").resolve(INSTALLED_FROM);
        if (Files.exists(installedFrom)
                && Files.readString(installedFrom, StandardCharsets.UTF_8)
                        .strip()
                        .equals(lock)) {
            return;
        }
        System.out.println("[" + suite + "] " + directory.getFileName()
                + "/node_modules is missing or not installed from package-lock.json: running npm ci");
        Path log = Files.createTempFile("keyhaven-npm-ci", ".log");
        try {
            int exitCode = run(
                    new ProcessBuilder(tool("npm").toString(), "ci", "--no-audit", "--no-fund")
                            .directory(directory.toFile()),
                    log,
                    "[npm] ",
                    NPM_CI);
            assertThat(exitCode).as("exit code of npm ci (its output is above)").isZero();
            // npm ci leaves no node_modules/ behind for a package without dependencies.
            Files.createDirectories(installedFrom.getParent());
            Files.writeString(installedFrom, lock + "\n", StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** The SHA-256 of {@code directory}'s {@code package-lock.json}, in hex, as {@code sha256sum} prints it. */
    static String lockHash(Path directory) throws IOException {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(Files.readAllBytes(directory.resolve("package-lock.json")));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** A child process and the thread copying its output into the test log. */
    public record Child(Process process, Thread output) {

        /** Waits for the copy to catch up with everything the child wrote before it exited. */
        public void drain() throws InterruptedException {
            output.join(Duration.ofSeconds(10));
        }

        /** Kills the child and whatever it started. */
        public void kill() throws InterruptedException {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Runs a child to its end, within {@code timeout} or killed (failing the test); returns its exit code. */
    public static int run(ProcessBuilder builder, Path log, String prefix, Duration timeout)
            throws IOException, InterruptedException {
        Child child = start(builder, log, prefix, line -> {});
        try {
            if (!child.process().waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                fail(String.join(" ", builder.command()) + " did not finish within " + timeout);
            }
        } finally {
            if (child.process().isAlive()) {
                child.kill();
            }
            child.drain();
        }
        return child.process().exitValue();
    }

    /**
     * Starts {@code builder} with stdin from {@code /dev/null} and stdout and stderr going to {@code log}, and a
     * thread that copies that file, line by line, into this test's log while the child runs, handing each line to
     * {@code watcher}. A file rather than a pipe: the JDK closes a child's pipe when it reaps the child, so a reader
     * blocked on the pipe loses the last lines ("Stream closed"); and a child must neither write to nor read from the
     * test fork's own stdout and stdin, which carry its channel to Maven.
     */
    public static Child start(ProcessBuilder builder, Path log, String prefix, Consumer<String> watcher)
            throws IOException {
        Files.deleteIfExists(log);
        Files.createFile(log);
        Process process = builder.redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
        Thread output = Thread.ofPlatform()
                .daemon()
                .name("output of " + prefix.trim())
                .start(() -> {
                    try (InputStream in = new BufferedInputStream(Files.newInputStream(log))) {
                        ByteArrayOutputStream line = new ByteArrayOutputStream();
                        boolean exited = false;
                        while (true) {
                            int b = in.read();
                            if (b == '\n') {
                                emit(line, prefix, watcher);
                            } else if (b >= 0) {
                                line.write(b);
                            } else if (exited) {
                                break;
                            } else {
                                // The end of what was written so far: wait for more; once the child is gone, drain
                                // once more.
                                exited = process.waitFor(50, TimeUnit.MILLISECONDS);
                            }
                        }
                        if (line.size() > 0) {
                            emit(line, prefix, watcher);
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
        return new Child(process, output);
    }

    private static void emit(ByteArrayOutputStream line, String prefix, Consumer<String> watcher) {
        String text = line.toString(StandardCharsets.UTF_8);
        line.reset();
        System.out.println(prefix + text);
        watcher.accept(text);
    }
}
