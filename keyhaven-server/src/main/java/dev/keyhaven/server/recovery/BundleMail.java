package dev.keyhaven.server.recovery;

import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.mail.MailAddresses;
import dev.keyhaven.server.mail.MailException;
import dev.keyhaven.server.mail.MailMessage;
import dev.keyhaven.server.mail.Mailer;
import dev.keyhaven.server.user.User;
import dev.keyhaven.server.user.UserRepository;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What the emails carrying a credential bundle (recovery, email sign-in) share: the address the intent names, the
 * user it belongs to, the operator's templates and the sender, and the hand-over to the mailer inside the activity,
 * so that when the SMTP server refuses the mail the activity fails and no credential exists.
 */
final class BundleMail {
    private final UserRepository users;
    private final Mailer mailer;
    private final String defaultFrom;
    private final EmailTemplates templates;

    BundleMail(UserRepository users, Mailer mailer, String defaultFrom, Optional<Path> templatesDirectory) {
        this.users = users;
        this.mailer = mailer;
        this.defaultFrom = defaultFrom;
        this.templates = new EmailTemplates(templatesDirectory);
    }

    /** The intent's {@code email}: required, and an address. */
    static String email(Params p) {
        String email = p.requiredString("email");
        if (!MailAddresses.isValid(email)) {
            throw ApiException.badField(p.pathOf("email"), "is not an email address");
        }
        return email;
    }

    /** The user of the activity's organization with this email; 404 when none has it. */
    User recipient(ActivityContext context, String email) {
        String org = context.organizationId();
        return users.userWithEmail(context.tx(), org, email)
                .flatMap(id -> users.find(context.tx(), org, id))
                .orElseThrow(() -> ApiException.notFound("no user of this organization has the email " + email));
    }

    EmailTemplates templates() {
        return templates;
    }

    String defaultFrom() {
        return defaultFrom;
    }

    /** Hands the mail over; a refusal is the activity's failure, {@code UNAVAILABLE}, naming {@code what}. */
    void send(MailMessage message, String what) {
        try {
            mailer.send(message);
        } catch (MailException e) {
            throw new ApiException(ErrorCode.UNAVAILABLE, "the " + what + " could not be sent: " + e.getMessage());
        }
    }
}
