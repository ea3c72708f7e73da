package dev.keyhaven.server.recovery;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.user.AttestationVerifier;
import dev.keyhaven.server.user.Credentials;
import dev.keyhaven.server.user.NewApiKey;
import dev.keyhaven.server.user.NewAuthenticator;
import java.util.List;
import java.util.Optional;

/**
 * {@code recover_user}: stamped with the recovery credential that {@code init_user_email_recovery} emailed, it
 * registers a new passkey ({@code authenticator}, as Turnkey defines it) or, a Keyhaven extension, a new API key
 * ({@code apiKey}, {@code v1ApiKeyParamsV2}) for that user, and uses every recovery credential of the user up.
 */
final class RecoverUserHandler implements ActivityHandler<RecoverUserHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "recover_user",
            ActivityResource.RECOVERY,
            ActivityAction.UPDATE,
            new ActivityVersion(ActivityType.RECOVER_USER, "recoverUserIntent", "recoverUserResult"));

    private final Credentials userCredentials;
    private final RecoveryCredentialRepository recoveryCredentials;
    private final AttestationVerifier attestations;

    public RecoverUserHandler(
            Credentials userCredentials,
            RecoveryCredentialRepository recoveryCredentials,
            AttestationVerifier attestations) {
        this.userCredentials = userCredentials;
        this.recoveryCredentials = recoveryCredentials;
        this.attestations = attestations;
    }

    /** The validated parameters: the user and exactly one new credential. */
    public record Intent(String userId, Optional<NewAuthenticator> authenticator, Optional<NewApiKey> apiKey) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        String userId = p.requiredString("userId");
        Optional<NewAuthenticator> authenticator =
                p.optionalObject("authenticator").map(a -> NewAuthenticator.read(a, attestations));
        Optional<NewApiKey> apiKey = p.optionalObject("apiKey").map(NewApiKey::read);
        if (authenticator.isPresent() == apiKey.isPresent()) {
            throw ApiException.badField(p.pathOf("authenticator"), "is required (or, instead, parameters.apiKey)");
        }
        return new Intent(userId, authenticator, apiKey);
    }

    /** The user recovers their own credentials: allowed to them by the implicit rule. */
    @Override
    public Optional<String> credentialOwner(Intent intent) {
        return Optional.of(intent.userId());
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        Caller submitter = context.submitter();
        if (!Caller.RECOVERY_CREDENTIAL_TYPE.equals(submitter.credential().type())
                || !submitter.userId().equals(intent.userId())) {
            throw new ApiException(
                    ErrorCode.REQUEST_NOT_AUTHORIZED,
                    "recover_user must be stamped with the "
                            + "recovery credential that init_user_email_recovery sent to user " + intent.userId());
        }
        String org = context.organizationId();
        recoveryCredentials.deleteAll(context.tx(), org, intent.userId());
        if (intent.authenticator().isPresent()) {
            return new Result(
                    userCredentials.addAuthenticators(
                            context.tx(),
                            org,
                            intent.userId(),
                            List.of(intent.authenticator().get()),
                            context.now(),
                            context.ids()),
                    null);
        }
        return new Result(
                List.of(),
                userCredentials.addApiKeys(
                        context.tx(),
                        org,
                        intent.userId(),
                        List.of(intent.apiKey().get()),
                        context.now(),
                        context.ids()));
    }

    /** {@code recoverUserResult}: {@code authenticatorId} (Turnkey's, an array); {@code apiKeyIds} for an API key. */
    public record Result(List<String> authenticatorId, List<String> apiKeyIds) {}
}
