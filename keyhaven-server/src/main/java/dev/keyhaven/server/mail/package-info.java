/**
 * Outgoing mail: {@link dev.keyhaven.server.mail.Mailer} with two implementations, {@code SmtpMailer} (Jakarta Mail
 * over SMTP, plain, STARTTLS or TLS, optional login) and {@code MaildirMailer} (the same MIME message written to a
 * Maildir in the data directory when no SMTP server is configured, so nothing is dropped silently). Knows no
 * feature.
 */
package dev.keyhaven.server.mail;
