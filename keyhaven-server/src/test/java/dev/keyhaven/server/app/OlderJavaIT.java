package dev.keyhaven.server.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.server.testing.KeyhavenProcess;
import dev.keyhaven.server.testing.KeyhavenProcess.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packaged jar run by a Java older than 25 (the machine's default {@code /usr/bin/java} is 17, or
 * {@code KEYHAVEN_TEST_OLD_JAVA}) prints one line naming that Java and the command that would work, and exits 1.
 * Before the Java-8 launcher it died with an {@code UnsupportedClassVersionError} and its stack trace.
 */
class OlderJavaIT {
    private static final Path OLD_JAVA =
            Path.of(System.getenv().getOrDefault("KEYHAVEN_TEST_OLD_JAVA", "/usr/bin/java"));

    private static String specificationVersion;
    private static String javaHome;

    @BeforeAll
    static void findTheOldJava() throws Exception {
        if (!Files.isExecutable(OLD_JAVA)) {
            skipLoudly("no java at " + OLD_JAVA + " (set KEYHAVEN_TEST_OLD_JAVA)");
        }
        Result settings = run(List.of(OLD_JAVA.toString(), "-XshowSettings:properties", "-version"));
        specificationVersion = property(settings.stderr(), "java.specification.version");
        javaHome = property(settings.stderr(), "java.home");
        if (Launcher.featureVersion(specificationVersion) >= Launcher.REQUIRED_JAVA) {
            skipLoudly(OLD_JAVA + " is Java " + specificationVersion + ", not older than " + Launcher.REQUIRED_JAVA);
        }
    }

    @Test
    void everyCommandStopsWithOneLineSayingWhichJavaToUse() throws Exception {
        String jar = KeyhavenProcess.jar().toString();
        String line = "keyhaven: needs Java 25 or newer; this is Java " + specificationVersion + " at " + javaHome
                + " (set JAVA_HOME to a JDK 25 or newer and run \"$JAVA_HOME/bin/java -jar " + jar + "\")";
        for (List<String> arguments :
                List.of(List.of("--version"), List.of("serve", "--port", "0"), List.<String>of())) {
            List<String> command = new ArrayList<>(List.of(OLD_JAVA.toString(), "-jar", jar));
            command.addAll(arguments);
            Result result = run(command);
            assertThat(result.stderr().lines().toList())
                    .as("stderr of %s", arguments)
                    .containsExactly(line);
            assertThat(result.stdout()).as("stdout of %s", arguments).isEmpty();
            assertThat(result.exitCode()).as("exit status of %s", arguments).isEqualTo(1);
        }
    }

    @Test
    void theSameJarRunsOnThisJava() throws Exception {
        Result version = KeyhavenProcess.run(List.of("--version"), Map.of());
        assertThat(version.exitCode())
                .as("exit status; stderr: %s", version.stderr())
                .isZero();
        assertThat(version.stdout()).startsWith("keyhaven ");
        assertThat(version.stderr()).isEmpty();
    }

    private static void skipLoudly(String reason) {
        System.err.println("!!! SKIPPING the older-Java test: " + reason);
        Assumptions.abort("SKIPPED LOUDLY: " + reason);
    }

    private static String property(String settings, String name) {
        return settings.lines()
                .map(String::strip)
                .filter(l -> l.startsWith(name + " = "))
                .findFirst()
                .map(l -> l.substring(name.length() + 3))
                .orElseThrow(() -> new IllegalStateException("no " + name + " in:\n" + settings));
    }

    private static Result run(List<String> command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        // JAVA_TOOL_OPTIONS would add a "Picked up" line to stderr.
        builder.environment()
                .keySet()
                .removeIf(name -> name.startsWith("KEYHAVEN_") || name.equals("JAVA_TOOL_OPTIONS"));
        Process process = builder.start();
        // Both outputs are short: read them after the exit, with a deadline on the exit.
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(command + " did not finish within 60 s");
        }
        return new Result(
                process.exitValue(),
                new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }
}
