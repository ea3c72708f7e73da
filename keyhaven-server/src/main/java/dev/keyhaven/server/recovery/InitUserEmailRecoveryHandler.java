package dev.keyhaven.server.recovery;

import static dev.keyhaven.server.activity.VersionTable.version;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.VersionTable;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.custody.KeyTransfer;
import dev.keyhaven.server.organization.FeatureName;
import dev.keyhaven.server.organization.OrganizationFeatures;
import dev.keyhaven.server.user.User;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code init_user_email_recovery} (V2, and V1: see {@link #DEFAULT_APP_NAME}): finds the user by email, replaces any earlier recovery credential of theirs
 * with a fresh P-256 one that expires ({@code expirationSeconds}, 15 minutes by default, at most a day), and emails
 * its private key as a credential bundle encrypted to {@code targetPublicKey}. The mail is handed over inside the
 * activity: if the SMTP server does not take it, the activity fails and no credential exists.
 */
final class InitUserEmailRecoveryHandler implements ActivityHandler<InitUserEmailRecoveryHandler.Intent> {
    /** The seed's default validity of a recovery credential. */
    public static final long DEFAULT_EXPIRATION_SECONDS = 15 * 60;
    /** The longest validity accepted; a recovery credential is meant to be used at once. */
    public static final long MAX_EXPIRATION_SECONDS = 24 * 60 * 60;

    /**
     * V1 ({@code @turnkey/http} 2.0–3.15, sdk-server ≤ 4.12) has V2's fields, but its {@code emailCustomization} and
     * that object's {@code appName} are optional: without one, the email's app name is {@value #DEFAULT_APP_NAME}.
     * Both answer {@code initUserEmailRecoveryResult}.
     */
    static final String DEFAULT_APP_NAME = EmailAuthHandler.DEFAULT_APP_NAME;

    private final VersionTable<Intent> versions = VersionTable.of(
            version(
                    ActivityType.INIT_USER_EMAIL_RECOVERY_V2,
                    "initUserEmailRecoveryIntentV2",
                    "initUserEmailRecoveryResult",
                    p -> read(p, EmailCustomization::read)),
            version(
                    ActivityType.INIT_USER_EMAIL_RECOVERY,
                    "initUserEmailRecoveryIntent",
                    "initUserEmailRecoveryResult",
                    p -> read(p, intent -> EmailCustomization.optional(intent, DEFAULT_APP_NAME))));

    private final ActivitySpec spec =
            ActivitySpec.of("init_user_email_recovery", ActivityResource.RECOVERY, ActivityAction.CREATE, versions);

    private final RecoveryCredentialRepository credentials;
    private final KeyTransfer transfer;
    private final BundleMail mail;
    private final OrganizationFeatures features;

    InitUserEmailRecoveryHandler(
            RecoveryCredentialRepository credentials,
            KeyTransfer transfer,
            BundleMail mail,
            OrganizationFeatures features) {
        this.credentials = credentials;
        this.transfer = transfer;
        this.mail = mail;
        this.features = features;
    }

    /** The validated parameters, with the template they chose (empty: the built-in one). */
    public record Intent(
            String email,
            byte[] targetPublicKey,
            long expirationSeconds,
            EmailCustomization customization,
            Optional<EmailTemplates.Template> template) {}

    @Override
    public ActivitySpec spec() {
        return spec;
    }

    @Override
    public Intent parse(Params p) {
        return parse(p, ActivityType.INIT_USER_EMAIL_RECOVERY_V2);
    }

    @Override
    public Intent parse(Params p, ActivityType type) {
        return versions.read(p, type);
    }

    /** Reads the fields both versions share, and the email's look by the version's rule. */
    private Intent read(Params p, Function<Params, EmailCustomization> look) {
        String email = BundleMail.email(p);
        byte[] target = KeyTransfer.targetKey(p.requiredString("targetPublicKey"), p.pathOf("targetPublicKey"));
        long expiration = p.optionalUint64("expirationSeconds").orElse(DEFAULT_EXPIRATION_SECONDS);
        if (expiration < 1 || expiration > MAX_EXPIRATION_SECONDS) {
            throw ApiException.badField(
                    p.pathOf("expirationSeconds"), "must be between 1 and " + MAX_EXPIRATION_SECONDS + " seconds");
        }
        EmailCustomization customization = look.apply(p);
        return new Intent(
                email,
                target,
                expiration,
                customization,
                mail.templates().find(customization.templateId(), p.pathOf("emailCustomization") + ".templateId"));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        String org = context.organizationId();
        features.require(context.tx(), org, FeatureName.EMAIL_RECOVERY);
        User user = mail.recipient(context, intent.email());
        credentials.deleteAll(context.tx(), org, user.id());
        KeyTransfer.RecoveryCredential credential = transfer.newRecoveryCredential(intent.targetPublicKey());
        credentials.insert(
                context.tx(),
                org,
                user.id(),
                context.ids().next(),
                credential.publicKeyHex(),
                intent.expirationSeconds(),
                context.now().plusSeconds(intent.expirationSeconds()),
                context.now());
        mail.send(
                RecoveryEmail.render(
                        intent.customization(),
                        intent.template(),
                        mail.defaultFrom(),
                        user.email().orElse(intent.email()),
                        credential.credentialBundle(),
                        intent.expirationSeconds()),
                "recovery email");
        return new Result(user.id());
    }

    /** {@code initUserEmailRecoveryResult}. */
    public record Result(String userId) {}
}
