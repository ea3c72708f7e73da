package dev.keyhaven.server.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data directory: created on first use, readable only by its owner. It holds the master key, the root key pair,
 * the embedded database and the development mail and SMS files, so it is 0700 and everything in it is for the owner
 * only (files 0600). A directory that exists already is tightened at every start, with whatever it holds: one
 * restored from a backup, made by hand, or written by an older Keyhaven with the process's umask. Permissions are
 * only ever taken away, never added, and symbolic links are left alone (where they point is the operator's choice).
 */
final class DataDirectory {
    private static final Logger LOG = LoggerFactory.getLogger(DataDirectory.class);
    private static final Set<PosixFilePermission> OWNER = EnumSet.of(
            PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);

    private DataDirectory() {}

    static Path prepare(Path directory) {
        try {
            if (!Files.isDirectory(directory)) {
                Files.createDirectories(
                        directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } else if (Files.getFileStore(directory).supportsFileAttributeView("posix")) {
                tighten(directory);
            }
            return directory.toAbsolutePath();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create data directory " + directory, e);
        }
    }

    /** Takes the group's and others' permissions off the directory and everything in it. */
    private static void tighten(Path directory) throws IOException {
        Files.walkFileTree(directory, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                ownerOnly(dir);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                if (attributes.isRegularFile()) {
                    ownerOnly(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static void ownerOnly(Path path) {
        try {
            Set<PosixFilePermission> was = Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS);
            Set<PosixFilePermission> now = EnumSet.noneOf(PosixFilePermission.class);
            now.addAll(was);
            now.retainAll(OWNER);
            if (!now.equals(was)) {
                Files.setPosixFilePermissions(path, now);
                LOG.atWarn()
                        .addKeyValue("path", path)
                        .addKeyValue("was", PosixFilePermissions.toString(was))
                        .addKeyValue("now", PosixFilePermissions.toString(now))
                        .log("tightened the permissions of the data directory to its owner only");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot restrict " + path + " in the data directory to its owner", e);
        }
    }
}
