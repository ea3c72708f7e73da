package dev.keyhaven.server.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A temporary directory for helpers whose lifetime JUnit's {@code @TempDir} cannot follow (a server shared by a
 * class, made in a static factory); whoever creates one deletes it when done, so that a test run leaves nothing in
 * {@code java.io.tmpdir}.
 */
public final class TemporaryDirectory {
    private TemporaryDirectory() {}

    /** A new empty directory under {@code java.io.tmpdir}, its name starting with {@code prefix}. */
    public static Path create(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Deletes {@code directory} and all it holds. A file that cannot be deleted is reported on stderr rather than
     * failing the test that is cleaning up.
     */
    public static void delete(Path directory) {
        if (directory == null || !Files.exists(directory)) {
            return;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    System.err.println("could not delete " + path + ": " + e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            System.err.println("could not delete " + directory + ": " + e);
        }
    }
}
