package dev.keyhaven.policy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The seed corpus of a fuzz target: every file under {@code src/test/resources/fuzz/<target>/}. Given to a
 * {@code @FuzzTest} through {@code @MethodSource}, the seeds are replayed as test cases by every build and handed to
 * the fuzzer as its starting corpus when fuzzing (docs/fuzzing.md).
 */
final class FuzzSeeds {
    private FuzzSeeds() {}

    static Stream<Arguments> of(String target) {
        URL directory = FuzzSeeds.class.getResource("/fuzz/" + target);
        if (directory == null) {
            throw new IllegalStateException("no seed corpus fuzz/" + target + " on the test classpath");
        }
        try (Stream<Path> files = Files.list(Path.of(directory.toURI()))) {
            List<Path> seeds = files.filter(Files::isRegularFile).sorted().toList();
            if (seeds.isEmpty()) {
                throw new IllegalStateException("the seed corpus fuzz/" + target + " is empty");
            }
            return seeds.stream()
                    .map(seed -> Arguments.of(Named.of(seed.getFileName().toString(), read(seed))));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] read(Path seed) {
        try {
            return Files.readAllBytes(seed);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
