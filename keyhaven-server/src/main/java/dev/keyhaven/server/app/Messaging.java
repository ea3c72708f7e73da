package dev.keyhaven.server.app;

import dev.keyhaven.server.mail.MaildirMailer;
import dev.keyhaven.server.mail.Mailer;
import dev.keyhaven.server.mail.SmtpMailer;
import dev.keyhaven.server.recovery.CodeMail;
import dev.keyhaven.server.sms.FileSms;
import dev.keyhaven.server.sms.SmsSender;
import dev.keyhaven.server.sms.TwilioSms;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How messages leave: mail (SMTP, or the Maildir in the data directory) with the operator's templates, and SMS (none,
 * Twilio, or a file), as the configuration says. Each destination is logged once at start-up.
 */
final class Messaging {
    private static final Logger LOG = LoggerFactory.getLogger(Keyhaven.class);

    final Mailer mailer;
    final CodeMail codeMail;
    final SmsSender sms;
    /** The sender of mail whose request names none. */
    final String defaultFrom;
    /** The operator's email templates. */
    final Optional<Path> templates;

    private Messaging(KeyhavenConfig config, Clock clock) {
        this.mailer =
                config.mail().smtp().<Mailer>map(SmtpMailer::new).orElseGet(() -> new MaildirMailer(config.maildir()));
        LOG.info("mail (email recovery) goes to {}", mailer.describe());
        this.defaultFrom = config.mail().defaultFrom();
        this.templates = Optional.of(config.effectiveTemplatesDirectory());
        this.codeMail = new CodeMail(mailer, defaultFrom, templates);
        this.sms = smsSender(config, clock);
        LOG.info("SMS codes go to {}", sms.describe());
    }

    static Messaging of(KeyhavenConfig config, Clock clock) {
        return new Messaging(config, clock);
    }

    private static SmsSender smsSender(KeyhavenConfig config, Clock clock) {
        OtpSettings.Sms sms = config.otp().sms();
        return switch (sms.provider()) {
            case NONE -> SmsSender.NONE;
            case FILE -> new FileSms(config.smsFile(), clock);
            case TWILIO -> {
                String token;
                try {
                    token = Files.readString(sms.twilioTokenFile().orElseThrow())
                            .strip();
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read the Twilio token file", e);
                }
                yield new TwilioSms(sms.twilioBaseUrl(), sms.twilioAccount(), token, sms.from());
            }
        };
    }
}
