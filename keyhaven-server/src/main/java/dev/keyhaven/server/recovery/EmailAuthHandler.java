package dev.keyhaven.server.recovery;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.organization.FeatureName;
import dev.keyhaven.server.organization.OrganizationFeatures;
import dev.keyhaven.server.session.BundleKeys;
import dev.keyhaven.server.user.SignInKeyType;
import dev.keyhaven.server.user.User;
import java.util.Optional;

/**
 * {@code email_auth} (V1–V3), the older email sign-in that published SDKs still send: finds the user by email, gives
 * them a fresh expiring API key ({@code apiKeyName}, default {@code Email Auth - <epoch seconds>}; 15 minutes unless
 * {@code expirationSeconds} says otherwise) and emails its private key as a credential bundle encrypted to
 * {@code targetPublicKey}, in a "Sign in to appName" email with the magic link recovery emails have. The answer
 * ({@code emailAuthResult}) carries the ids only: the bundle goes into the email alone. V3 requires
 * {@code emailCustomization.appName}; V1 and V2 default it to {@value #DEFAULT_APP_NAME}. As for recovery, the mail
 * is handed over inside the activity: if the SMTP server does not take it, the activity fails and no key exists.
 */
final class EmailAuthHandler implements ActivityHandler<EmailAuthHandler.Intent> {
    /** The app name of an email whose request names none (V1 and V2 allow that). */
    static final String DEFAULT_APP_NAME = "Keyhaven";

    private static final ActivitySpec SPEC = ActivitySpec.of(
                    "email_auth",
                    ActivityResource.AUTH,
                    ActivityAction.CREATE,
                    new ActivityVersion(ActivityType.EMAIL_AUTH_V3, "emailAuthIntentV3", "emailAuthResult"),
                    new ActivityVersion(ActivityType.EMAIL_AUTH_V2, "emailAuthIntentV2", "emailAuthResult"),
                    new ActivityVersion(ActivityType.EMAIL_AUTH, "emailAuthIntent", "emailAuthResult"))
            .initiatedByParent();

    private final BundleKeys keys;
    private final BundleMail mail;
    private final OrganizationFeatures features;

    EmailAuthHandler(BundleKeys keys, BundleMail mail, OrganizationFeatures features) {
        this.keys = keys;
        this.mail = mail;
        this.features = features;
    }

    /** The validated parameters, with the template they named (empty: the built-in one). */
    public record Intent(
            String email,
            BundleKeys.Request key,
            EmailCustomization customization,
            Optional<EmailTemplates.Template> template) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        return parse(p, ActivityType.EMAIL_AUTH_V3);
    }

    @Override
    public Intent parse(Params p, ActivityType type) {
        String email = BundleMail.email(p);
        BundleKeys.Request key = BundleKeys.read(p, SignInKeyType.EMAIL_AUTH);
        EmailCustomization customization = type == ActivityType.EMAIL_AUTH_V3
                ? EmailCustomization.read(p)
                : EmailCustomization.optional(p, DEFAULT_APP_NAME);
        // Only a template named by id: the newest template of the directory may well be a recovery email.
        Optional<EmailTemplates.Template> template = customization.templateId().isEmpty()
                ? Optional.empty()
                : mail.templates().find(customization.templateId(), p.pathOf("emailCustomization") + ".templateId");
        return new Intent(email, key, customization, template);
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        String org = context.organizationId();
        features.require(context.tx(), org, FeatureName.EMAIL_AUTH);
        User user = mail.recipient(context, intent.email());
        BundleKeys.Issued issued = keys.issue(context.tx(), org, user.id(), intent.key(), context.now(), context.ids());
        mail.send(
                RecoveryEmail.renderSignIn(
                        intent.customization(),
                        intent.template(),
                        mail.defaultFrom(),
                        user.email().orElse(intent.email()),
                        issued.credentialBundle(),
                        intent.key().expirationSeconds()),
                "sign-in email");
        return new Result(user.id(), issued.apiKeyId());
    }

    /** {@code emailAuthResult}. */
    public record Result(String userId, String apiKeyId) {}
}
