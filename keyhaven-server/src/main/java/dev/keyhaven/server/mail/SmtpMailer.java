package dev.keyhaven.server.mail;

import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.MimeMessage;
import java.util.Properties;

/** Sends over SMTP with Jakarta Mail: one connection per message, bounded by the configured timeout. */
public final class SmtpMailer implements Mailer {
    private final MailSettings.Smtp smtp;
    private final Session session;

    public SmtpMailer(MailSettings.Smtp smtp) {
        this.smtp = smtp;
        boolean tls = smtp.security() == MailSettings.Security.TLS;
        String protocol = tls ? "smtps" : "smtp";
        String prefix = "mail." + protocol + ".";
        Properties properties = new Properties();
        properties.put("mail.transport.protocol", protocol);
        properties.put(prefix + "host", smtp.host());
        properties.put(prefix + "port", Integer.toString(smtp.port()));
        String millis = Long.toString(smtp.timeout().toMillis());
        properties.put(prefix + "connectiontimeout", millis);
        properties.put(prefix + "timeout", millis);
        properties.put(prefix + "writetimeout", millis);
        properties.put(prefix + "auth", Boolean.toString(smtp.username().isPresent()));
        if (smtp.security() == MailSettings.Security.STARTTLS) {
            properties.put(prefix + "starttls.enable", "true");
            properties.put(prefix + "starttls.required", "true");
        }
        if (smtp.security() != MailSettings.Security.NONE) {
            properties.put(prefix + "ssl.checkserveridentity", "true");
        }
        this.session = Session.getInstance(properties);
    }

    @Override
    public void send(MailMessage message) {
        try {
            MimeMessage mime = MimeMessages.build(session, message);
            if (smtp.username().isPresent()) {
                Transport.send(mime, smtp.username().get(), smtp.password().orElse(""));
            } else {
                Transport.send(mime);
            }
        } catch (MessagingException e) {
            // The server's reply names the problem; it never contains the message body.
            throw new MailException(
                    "the SMTP server " + smtp.host() + ":" + smtp.port() + " did not take the message: "
                            + e.getMessage(),
                    e);
        }
    }

    @Override
    public String describe() {
        return "SMTP " + smtp.host() + ":" + smtp.port() + " ("
                + smtp.security().name().toLowerCase(java.util.Locale.ROOT)
                + smtp.username().map(u -> ", as " + u).orElse("") + ")";
    }
}
