package dev.keyhaven.server.recovery;

import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.custody.KeyTransfer;
import dev.keyhaven.server.mail.Mailer;
import dev.keyhaven.server.organization.OrganizationFeatures;
import dev.keyhaven.server.organization.OrganizationRepository;
import dev.keyhaven.server.session.BundleKeys;
import dev.keyhaven.server.user.AttestationVerifier;
import dev.keyhaven.server.user.Credentials;
import dev.keyhaven.server.user.UserRepository;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Email recovery assembled: the recovery bundle mailed to the user, and the recovery that spends it; and the older
 * email sign-in ({@code email_auth}), which mails a credential bundle the same way.
 */
public final class RecoveryFeature {
    private final List<ActivityHandler<?>> handlers;

    /**
     * @param defaultFrom the sender of recovery mail when the request names none
     * @param templatesDirectory the operator's email templates, when there are any
     */
    public RecoveryFeature(
            UserRepository users,
            RecoveryCredentialRepository recoveryCredentials,
            Credentials userCredentials,
            KeyTransfer transfer,
            AttestationVerifier attestations,
            Mailer mailer,
            String defaultFrom,
            Optional<Path> templatesDirectory,
            BundleKeys bundleKeys,
            OrganizationRepository organizations) {
        OrganizationFeatures features = new OrganizationFeatures(organizations);
        BundleMail mail = new BundleMail(users, mailer, defaultFrom, templatesDirectory);
        this.handlers = List.of(
                new InitUserEmailRecoveryHandler(recoveryCredentials, transfer, mail, features),
                new RecoverUserHandler(userCredentials, recoveryCredentials, attestations),
                new EmailAuthHandler(bundleKeys, mail, features));
    }

    public List<ActivityHandler<?>> handlers() {
        return handlers;
    }
}
