package dev.keyhaven.server.mail;

import java.util.Optional;

/**
 * One message to send: sender (address and display name), recipient, optional reply-to, subject, and a plain-text
 * and an HTML body. Its bodies may carry credentials, so {@link #toString()} shows the envelope only.
 */
public record MailMessage(
        String fromAddress,
        String fromName,
        String to,
        Optional<String> replyTo,
        String subject,
        String text,
        String html) {

    @Override
    public String toString() {
        return "MailMessage[to=" + to + ", subject=" + subject + "]";
    }
}
