package dev.keyhaven.server.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** The data directory: created on first use, readable only by its owner. */
final class DataDirectory {
    private DataDirectory() {
    }

    static Path prepare(Path directory) {
        try {
            if (!Files.isDirectory(directory)) {
                Files.createDirectories(directory,
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            return directory.toAbsolutePath();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create data directory " + directory, e);
        }
    }
}
