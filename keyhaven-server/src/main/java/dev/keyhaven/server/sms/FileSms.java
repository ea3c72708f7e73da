package dev.keyhaven.server.sms;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.Set;

/**
 * Development: appends each message as one line ({@code <instant> <to> <text>}) to a file, created readable by its
 * owner only: the lines carry one-time codes.
 */
public final class FileSms implements SmsSender {
    private static final Set<StandardOpenOption> APPEND =
            Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);

    private final Path file;
    private final Clock clock;

    public FileSms(Path file, Clock clock) {
        this.file = file;
        this.clock = clock;
    }

    @Override
    public synchronized void send(String to, String text) throws SmsException {
        String line = clock.instant() + " " + to + " " + text.replace('\n', ' ') + "\n";
        try {
            if (file.getParent() != null && !Files.isDirectory(file.getParent())) {
                Files.createDirectories(file.getParent(), ownerOnly("rwx------"));
            }
            try (FileChannel channel = FileChannel.open(file, APPEND, ownerOnly("rw-------"))) {
                ByteBuffer bytes = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
            }
        } catch (IOException e) {
            throw new SmsException("could not append to " + file + ": " + e.getMessage());
        }
    }

    /** The permissions to create with; none on a file system without POSIX permissions. */
    private static FileAttribute<?>[] ownerOnly(String permissions) {
        if (!FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            return new FileAttribute<?>[0];
        }
        return new FileAttribute<?>[] {
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(permissions))
        };
    }

    @Override
    public String describe() {
        return "the file " + file;
    }
}
