package dev.keyhaven.server.mail;

import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.io.UnsupportedEncodingException;
import java.nio.charset.StandardCharsets;
import java.util.Date;

/** Builds the MIME form of a {@link MailMessage}: multipart/alternative, text then HTML, UTF-8. */
final class MimeMessages {
    private MimeMessages() {}

    static MimeMessage build(Session session, MailMessage m) throws MessagingException {
        MimeMessage mime = new MimeMessage(session);
        try {
            mime.setFrom(new InternetAddress(m.fromAddress(), m.fromName(), StandardCharsets.UTF_8.name()));
        } catch (UnsupportedEncodingException e) {
            throw new IllegalStateException("UTF-8 is always supported", e);
        }
        mime.setRecipient(Message.RecipientType.TO, new InternetAddress(m.to(), true));
        if (m.replyTo().isPresent()) {
            mime.setReplyTo(
                    new InternetAddress[] {new InternetAddress(m.replyTo().get(), true)});
        }
        mime.setSubject(m.subject(), StandardCharsets.UTF_8.name());
        mime.setSentDate(new Date());
        MimeBodyPart text = new MimeBodyPart();
        text.setText(m.text(), StandardCharsets.UTF_8.name(), "plain");
        MimeBodyPart html = new MimeBodyPart();
        html.setText(m.html(), StandardCharsets.UTF_8.name(), "html");
        mime.setContent(new MimeMultipart("alternative", text, html));
        mime.saveChanges();
        return mime;
    }
}
