package dev.keyhaven.server.mail;

/** A message could not be handed over (SMTP refused it, the server was unreachable, the Maildir was unwritable). */
public final class MailException extends RuntimeException {
    public MailException(String message, Throwable cause) {
        super(message, cause);
    }
}
