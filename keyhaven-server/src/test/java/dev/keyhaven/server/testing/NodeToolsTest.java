package dev.keyhaven.server.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rule by which the JavaScript suites reuse installed packages: by the lock file's SHA-256, never by age, so that
 * {@code .ci/run}'s cache (keyed by the same hash) serves a clean clone, and anything else is installed again.
 */
class NodeToolsTest {
    /** A package without dependencies: {@code npm ci} installs it offline, in a moment. */
    private static final String PACKAGE = """
            {"name": "nothing", "version": "1.0.0", "private": true}
            """;

    private static final String LOCK = """
            {
              "name": "nothing",
              "version": "1.0.0",
              "lockfileVersion": 3,
              "requires": true,
              "packages": {"": {"name": "nothing", "version": "1.0.0"}}
            }
            """;

    private final NodeTools tools = new NodeTools("NodeToolsTest");

    @TempDir
    Path directory;

    @Test
    void theLockFilesHashIsSha256InLowerCaseHexAsSha256sumPrintsIt() throws Exception {
        Files.writeString(directory.resolve("package-lock.json"), "abc", StandardCharsets.UTF_8);

        // FIPS 180-2's example: SHA-256("abc").
        assertThat(NodeTools.lockHash(directory))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @Test
    void packagesInstalledFromTheSameLockFileAreKeptHoweverOldTheyLook() throws Exception {
        writePackage();
        Path marker = marker(NodeTools.lockHash(directory));
        // Older than the lock file, as in a clean clone linked to the cache. A stray file stands for the packages:
        // npm ci would have removed it.
        Path installed = Files.writeString(directory.resolve("node_modules").resolve("installed.js"), "");
        Files.setLastModifiedTime(marker, FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));

        tools.installPackagesIfStale(directory);

        assertThat(installed).exists();
    }

    @Test
    void packagesInstalledFromAnotherLockFileAreInstalledAgainAndMarkedWithThisOne() throws Exception {
        writePackage();
        marker("0".repeat(64));
        Path stale = Files.writeString(directory.resolve("node_modules").resolve("stale.js"), "");

        tools.installPackagesIfStale(directory);

        assertThat(stale).as("npm ci starts from an empty node_modules").doesNotExist();
        assertThat(Files.readString(directory.resolve("node_modules").resolve(NodeTools.INSTALLED_FROM)))
                .isEqualTo(NodeTools.lockHash(directory) + "\n");
    }

    @Test
    void packagesWithoutAMarkerAreInstalled() throws Exception {
        writePackage();

        tools.installPackagesIfStale(directory);

        assertThat(Files.readString(directory.resolve("node_modules").resolve(NodeTools.INSTALLED_FROM)))
                .isEqualTo(NodeTools.lockHash(directory) + "\n");
    }

    private void writePackage() throws Exception {
        Files.writeString(directory.resolve("package.json"), PACKAGE, StandardCharsets.UTF_8);
        Files.writeString(directory.resolve("package-lock.json"), LOCK, StandardCharsets.UTF_8);
    }

    private Path marker(String hash) throws Exception {
        Path modules = Files.createDirectories(directory.resolve("node_modules"));
        return Files.writeString(modules.resolve(NodeTools.INSTALLED_FROM), hash + "\n", StandardCharsets.UTF_8);
    }
}
