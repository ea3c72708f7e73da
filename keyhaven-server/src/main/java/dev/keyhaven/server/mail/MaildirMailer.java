package dev.keyhaven.server.mail;

import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers into a Maildir ({@code tmp/}, {@code new/}, {@code cur/}): each message is written to {@code tmp/} and
 * renamed into {@code new/}, so a reader never sees half a message. Used when no SMTP server is configured; the
 * directories (0700) and files (0600) are owner-only from their creation on, since messages may carry credential
 * bundles and one-time codes.
 */
public final class MaildirMailer implements Mailer {
    private static final Logger LOG = LoggerFactory.getLogger(MaildirMailer.class);

    private final Path maildir;
    private final Session session = Session.getInstance(new Properties());

    public MaildirMailer(Path maildir) {
        this.maildir = maildir;
    }

    @Override
    public void send(MailMessage message) {
        String name = System.currentTimeMillis() + "." + UUID.randomUUID() + ".keyhaven";
        try {
            for (String sub : new String[] {"tmp", "new", "cur"}) {
                if (!Files.isDirectory(maildir.resolve(sub))) {
                    Files.createDirectories(maildir.resolve(sub), ownerOnly("rwx------"));
                }
            }
            Path tmp = maildir.resolve("tmp").resolve(name);
            try (OutputStream out = Channels.newOutputStream(Files.newByteChannel(
                    tmp, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), ownerOnly("rw-------")))) {
                MimeMessages.build(session, message).writeTo(out);
            }
            Path delivered = maildir.resolve("new").resolve(name);
            Files.move(tmp, delivered, StandardCopyOption.ATOMIC_MOVE);
            // The recipient is a user's contact: the file name finds the message, the log need not carry it.
            LOG.atInfo()
                    .addKeyValue("file", delivered)
                    .log("no SMTP server configured: wrote the message to the Maildir");
        } catch (IOException | MessagingException e) {
            throw new MailException("writing the message to the Maildir " + maildir + " failed: " + e.getMessage(), e);
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
        return "the Maildir " + maildir + " (no SMTP server configured)";
    }
}
