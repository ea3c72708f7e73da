package dev.keyhaven.server.mail;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * How mail leaves: through an SMTP server, or, without one, into a Maildir; the default sender address; and the
 * directory of the operator's email templates.
 */
public record MailSettings(Optional<Smtp> smtp, String defaultFrom, Optional<Path> templatesDirectory) {
    /** The sender when neither the request nor {@code --mail-from} names one. */
    public static final String DEFAULT_FROM = "keyhaven@localhost";

    public static MailSettings none() {
        return new MailSettings(Optional.empty(), DEFAULT_FROM, Optional.empty());
    }

    public MailSettings withSmtp(Optional<Smtp> server) {
        return new MailSettings(server, defaultFrom, templatesDirectory);
    }

    public MailSettings withTemplatesDirectory(Optional<Path> directory) {
        return new MailSettings(smtp, defaultFrom, directory);
    }

    /** How the connection to the SMTP server is protected. */
    public enum Security {
        /** Plain SMTP (a relay on the same host or network). */
        NONE,
        /** Plain connection upgraded with STARTTLS, which the server must offer. */
        STARTTLS,
        /** TLS from the first byte (SMTPS, usually port 465). */
        TLS
    }

    /**
     * An SMTP server. The password is never printed.
     *
     * @param timeout connect, read and write timeout: mail is sent inside the activity's transaction
     */
    public record Smtp(
            String host,
            int port,
            Security security,
            Optional<String> username,
            Optional<String> password,
            Duration timeout) {

        @Override
        public String toString() {
            return "Smtp[" + host + ":" + port + ", " + security
                    + username.map(u -> ", user " + u).orElse("") + "]";
        }
    }
}
