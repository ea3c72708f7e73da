package dev.keyhaven.server.mail;

/** Hands messages over for delivery. */
public interface Mailer {

    /**
     * Sends {@code message} or throws: when this returns, an SMTP server accepted it or it is in the Maildir.
     *
     * @throws MailException when the message was not handed over
     */
    void send(MailMessage message);

    /** Where mail goes, for the start-up log and operators (never a password). */
    String describe();
}
