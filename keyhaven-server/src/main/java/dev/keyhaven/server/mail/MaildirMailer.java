package dev.keyhaven.server.mail;

import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers into a Maildir ({@code tmp/}, {@code new/}, {@code cur/}): each message is written to {@code tmp/} and
 * renamed into {@code new/}, so a reader never sees half a message. Used when no SMTP server is configured; the files
 * are owner-only, since they may carry credential bundles.
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
                Files.createDirectories(maildir.resolve(sub));
            }
            Path tmp = maildir.resolve("tmp").resolve(name);
            try (OutputStream out = Files.newOutputStream(tmp)) {
                MimeMessages.build(session, message).writeTo(out);
            }
            restrict(tmp);
            Path delivered = maildir.resolve("new").resolve(name);
            Files.move(tmp, delivered, StandardCopyOption.ATOMIC_MOVE);
            LOG.atInfo().addKeyValue("to", message.to()).addKeyValue("file", delivered)
                    .log("no SMTP server configured: wrote the message to the Maildir");
        } catch (IOException | MessagingException e) {
            throw new MailException("writing the message to the Maildir " + maildir + " failed: " + e.getMessage(), e);
        }
    }

    private static void restrict(Path file) throws IOException {
        try {
            Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException notPosix) {
            // Not a POSIX file system: the data directory's own permissions apply.
        }
    }

    @Override
    public String describe() {
        return "the Maildir " + maildir + " (no SMTP server configured)";
    }
}
