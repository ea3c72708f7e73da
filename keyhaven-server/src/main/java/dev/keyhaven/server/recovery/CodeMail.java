package dev.keyhaven.server.recovery;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.mail.MailException;
import dev.keyhaven.server.mail.Mailer;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One-time-password emails, through the same mailer, customization fields and operator templates as recovery
 * emails ({@link RecoveryEmail#renderCode}). Templates see {@code {{otpCode}}}. A template is used only when
 * {@code templateId} names it (the newest template of the directory may be a recovery email).
 */
public final class CodeMail {
    private final Mailer mailer;
    private final String defaultFrom;
    private final EmailTemplates templates;

    public CodeMail(Mailer mailer, String defaultFrom, Optional<Path> templatesDirectory) {
        this.mailer = mailer;
        this.defaultFrom = defaultFrom;
        this.templates = new EmailTemplates(templatesDirectory);
    }

    /** How one email looks: the validated customization and the template it chose. */
    public static final class Look {
        private final EmailCustomization customization;
        private final Optional<EmailTemplates.Template> template;

        private Look(EmailCustomization customization, Optional<EmailTemplates.Template> template) {
            this.customization = customization;
            this.template = template;
        }
    }

    /** Checks an app name field ({@code appName} of init_otp): required, one line, not blank. */
    public static String appName(Params p, String field) {
        return EmailCustomization.appName(p, field);
    }

    /**
     * The app name of an older intent that has none of its own: {@code emailCustomization.appName} (optional there,
     * and checked as {@code appName} is), or {@code defaultAppName}.
     */
    public static String customizationAppName(Params p, String defaultAppName) {
        return EmailCustomization.optional(p, defaultAppName).appName();
    }

    /** Reads the intent's optional {@code emailCustomization} and sender fields; problems are 400s naming them. */
    public Look read(Params intent, String appName) {
        EmailCustomization c = EmailCustomization.forCode(intent, appName);
        // Only a template named by id: the newest template of the directory may well be a recovery email.
        return new Look(
                c,
                c.templateId().isEmpty()
                        ? Optional.empty()
                        : templates.find(c.templateId(), intent.pathOf("emailCustomization") + ".templateId"));
    }

    /**
     * Sends {@code code} to {@code to}.
     *
     * @throws ApiException 503 when the mail server does not take the message
     */
    public void send(Look look, String to, String code, long expirationSeconds) {
        try {
            mailer.send(RecoveryEmail.renderCode(
                    look.customization, look.template, defaultFrom, to, code, expirationSeconds));
        } catch (MailException e) {
            throw new ApiException(ErrorCode.UNAVAILABLE, "the code could not be emailed: " + e.getMessage());
        }
    }
}
