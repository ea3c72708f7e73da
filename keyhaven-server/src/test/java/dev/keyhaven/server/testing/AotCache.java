package dev.keyhaven.server.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * An ahead-of-time cache (JDK 25, JEP 483/514) of the packaged jar's classes, loaded and linked, for the many
 * {@code java -jar keyhaven.jar} children the integration tests start: with it a child reaches "serving" in about
 * half the time (measured on 2 cores: 1.8 s without, 0.9 s with). Made once per test JVM by a training run of
 * {@code serve} on an empty data directory, stopped with SIGTERM once it serves; the JVM writes the cache as it
 * exits. The cache only speeds the children up: it changes nothing they do, and if the training fails the children
 * start without one.
 */
final class AotCache {
    private static final long TRAINING_SECONDS = 120;

    /**
     * What every child runs with besides the cache, its training included (a cache is only used by a JVM started
     * like the one that made it). The children live for seconds, so most of their CPU went to starting and to the
     * optimising compiler: with only the quick compiler (C1) and the serial collector, a {@code serve} that starts,
     * serves and stops takes 2.4 s of CPU instead of 4.3 s (three runs each on 2 cores), and the integration tests
     * start about 170 of them, two at a time, each beside the other's work. Nothing Keyhaven does depends on either.
     */
    private static final List<String> CHILD_JVM = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    private static Optional<Path> cache;

    private AotCache() {}

    /** The options of the jar's children: {@link #CHILD_JVM}, and the cache (made on the first call, if it can be). */
    static synchronized List<String> options(String java, Path jar) {
        if (cache == null) {
            cache = train(java, jar);
        }
        List<String> options = new ArrayList<>(CHILD_JVM);
        cache.ifPresent(file -> options.add("-XX:AOTCache=" + file));
        return options;
    }

    private static Optional<Path> train(String java, Path jar) {
        try {
            long started = System.nanoTime();
            Path work = TemporaryDirectory.create("keyhaven-aot");
            Path file = work.resolve("keyhaven.aot");
            List<String> command = new ArrayList<>(List.of(java));
            command.addAll(CHILD_JVM);
            command.add("-XX:AOTCacheOutput=" + file);
            command.addAll(List.of(
                    "-jar",
                    jar.toString(),
                    "serve",
                    "--data-dir",
                    work.resolve("data").toString(),
                    "--port",
                    "0"));
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectInput(
                            ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .redirectError(work.resolve("stderr").toFile());
            builder.environment().keySet().removeIf(name -> name.startsWith("KEYHAVEN_"));
            builder.environment().put("KEYHAVEN_AUTH_PROXY_PORT", "0");
            Process training = builder.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> TemporaryDirectory.delete(work)));
            // Stopped (SIGTERM, a normal exit) once it serves: the cache is written as the JVM exits.
            Thread.ofVirtual().start(() -> {
                try (BufferedReader stdout =
                        new BufferedReader(new InputStreamReader(training.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line = stdout.readLine(); line != null; line = stdout.readLine()) {
                        if (line.contains("organization id")) {
                            training.destroy();
                        }
                    }
                } catch (IOException e) {
                    // The training is gone: the check below tells whether it wrote the cache.
                }
            });
            if (!training.waitFor(TRAINING_SECONDS, TimeUnit.SECONDS)) {
                training.destroyForcibly();
                training.waitFor(10, TimeUnit.SECONDS);
            }
            if (Files.isRegularFile(file)) {
                System.out.printf(
                        "the jar's children start with the AOT cache %s (%d MB, trained in %d ms)%n",
                        file, Files.size(file) >> 20, (System.nanoTime() - started) / 1_000_000);
                return Optional.of(file);
            }
            System.err.println("!!! no AOT cache for the jar's children (the training run wrote none, see "
                    + work.resolve("stderr") + "): they start without one");
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot train the AOT cache", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
