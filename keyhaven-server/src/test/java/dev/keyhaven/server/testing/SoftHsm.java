package dev.keyhaven.server.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * SoftHSM2 (Debian's {@code softhsm2}) with tokens of a test's own: a configuration file and a token directory under
 * a temporary directory, tokens made with {@code softhsm2-util --init-token}, all deleted when closed. Without
 * {@code softhsm2-util} or the module the test is skipped loudly, unless {@code KEYHAVEN_REQUIRE_SOFTHSM=1} (set by
 * CI), which turns the skip into a failure.
 *
 * <p>SoftHSM2 reads {@code SOFTHSM2_CONF} when a process first loads it and never looks for tokens made afterwards.
 * So {@link #create} is for child processes (pass {@link #environment()}), and {@link #inThisJvm()} is the one
 * SoftHSM2 of this JVM: it writes the file the build's {@code SOFTHSM2_CONF} names and makes its tokens before any
 * test loads the module, and deletes them when the JVM exits.
 */
public final class SoftHsm implements AutoCloseable {
    /** The module; {@code KEYHAVEN_TEST_SOFTHSM_MODULE} overrides Debian's path. */
    public static final Path MODULE =
            Path.of(System.getenv().getOrDefault("KEYHAVEN_TEST_SOFTHSM_MODULE", "/usr/lib/softhsm/libsofthsm2.so"));

    /** The tokens of this JVM's SoftHSM2 ({@link #inThisJvm()}), in the order they are made. */
    public static final List<String> JVM_TOKENS = List.of("keyhaven-alpha", "keyhaven-beta", "keyhaven-crowded");

    /** The user PIN of every token made here. */
    public static final String PIN = "4821-user";

    private static final String SO_PIN = "9173-officer";
    private static final long COMMAND_SECONDS = 60;
    private static SoftHsm jvm;

    private final Path directory;
    private final Path configuration;
    private final boolean deleteDirectory;

    private SoftHsm(Path directory, Path configuration, boolean deleteDirectory) {
        this.directory = directory;
        this.configuration = configuration;
        this.deleteDirectory = deleteDirectory;
    }

    /** A SoftHSM2 of its own (no token yet) under a new temporary directory, for child processes. */
    public static SoftHsm create() {
        requireSoftHsm();
        Path directory = TemporaryDirectory.create("keyhaven-softhsm");
        SoftHsm softHsm = new SoftHsm(directory, directory.resolve("softhsm2.conf"), true);
        softHsm.writeConfiguration();
        return softHsm;
    }

    /**
     * This JVM's SoftHSM2, with the tokens {@link #JVM_TOKENS} (PIN {@link #PIN}), made on first use. The build sets
     * {@code SOFTHSM2_CONF} for the test JVM (keyhaven-server/pom.xml); the token directory is a temporary one.
     */
    public static synchronized SoftHsm inThisJvm() {
        requireSoftHsm();
        if (jvm == null) {
            String conf = System.getenv("SOFTHSM2_CONF");
            if (conf == null) {
                throw new IllegalStateException("SOFTHSM2_CONF is not set for this JVM: run the test through the "
                        + "build, which sets it (keyhaven-server/pom.xml, failsafe)");
            }
            Path configuration = Path.of(conf);
            Path directory = TemporaryDirectory.create("keyhaven-softhsm-jvm");
            SoftHsm softHsm = new SoftHsm(directory, configuration, true);
            softHsm.writeConfiguration();
            for (String label : JVM_TOKENS) {
                softHsm.initToken(label);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(softHsm::close, "softhsm-cleanup"));
            jvm = softHsm;
        }
        return jvm;
    }

    /** Makes a token labelled {@code label} in a free slot, with the user PIN {@link #PIN}. */
    public SoftHsm initToken(String label) {
        run("softhsm2-util", "--init-token", "--free", "--label", label, "--pin", PIN, "--so-pin", SO_PIN);
        return this;
    }

    /** What a child process needs in its environment to use this SoftHSM2. */
    public Map<String, String> environment() {
        return Map.of("SOFTHSM2_CONF", configuration.toString());
    }

    /** A new file in this SoftHSM2's directory holding {@code pin} and a newline, as an operator writes one. */
    public Path pinFile(String pin) {
        try {
            Path file = Files.createTempFile(directory, "pin", ".txt");
            Files.writeString(file, pin + "\n", StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A directory for the test's own files, deleted with this SoftHSM2. */
    public Path directory() {
        return directory;
    }

    @Override
    public void close() {
        if (deleteDirectory) {
            TemporaryDirectory.delete(directory);
        }
        if (!configuration.startsWith(directory)) {
            try {
                Files.deleteIfExists(configuration);
            } catch (IOException e) {
                System.err.println("could not delete " + configuration + ": " + e);
            }
        }
    }

    private void writeConfiguration() {
        Path tokens = directory.resolve("tokens");
        try {
            Files.createDirectories(tokens);
            Files.createDirectories(configuration.toAbsolutePath().getParent());
            Files.writeString(
                    configuration,
                    "directories.tokendir = " + tokens + "\n"
                            + "objectstore.backend = file\n"
                            + "log.level = ERROR\n"
                            + "slots.removable = false\n",
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void run(String... command) {
        Path output = directory.resolve("softhsm2-util.log");
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
        builder.environment().put("SOFTHSM2_CONF", configuration.toString());
        try {
            Process process = builder.start();
            if (!process.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed:\n" + Files.readString(output));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void requireSoftHsm() {
        String missing = null;
        if (onPath("softhsm2-util") == null) {
            missing = "no softhsm2-util on the PATH (apt-get install softhsm2)";
        } else if (!Files.isRegularFile(MODULE)) {
            missing = "no SoftHSM2 module at " + MODULE + " (set KEYHAVEN_TEST_SOFTHSM_MODULE)";
        }
        if (missing == null) {
            return;
        }
        if ("1".equals(System.getenv("KEYHAVEN_REQUIRE_SOFTHSM"))) {
            throw new IllegalStateException(missing + " and KEYHAVEN_REQUIRE_SOFTHSM=1");
        }
        System.err.println("!!! SKIPPING a test that needs SoftHSM2: " + missing);
        Assumptions.abort("SKIPPED LOUDLY: " + missing);
    }

    private static Path onPath(String program) {
        for (String entry : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!entry.isEmpty() && Files.isExecutable(Path.of(entry, program))) {
                return Path.of(entry, program);
            }
        }
        return null;
    }
}
