package dev.keyhaven.server.oauth2;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.activity.PolicyFacts;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.state.StateReads;
import java.util.Optional;

/**
 * {@code create_oauth2_credential}: stores a provider's client id with its secret, which arrives encrypted to the
 * credential-encryption key and is kept sealed under the KEK (the envelope is kept as received, for the views).
 */
final class CreateOauth2CredentialHandler implements ActivityHandler<Oauth2CredentialParams> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "create_oauth2_credential",
            ActivityResource.CREDENTIAL,
            ActivityAction.CREATE,
            new ActivityVersion(
                    ActivityType.CREATE_OAUTH2_CREDENTIAL,
                    "createOauth2CredentialIntent",
                    "createOauth2CredentialResult"));

    private final Oauth2CredentialRepository credentials;
    private final Oauth2ClientSecrets secrets;

    public CreateOauth2CredentialHandler(Oauth2CredentialRepository credentials, Oauth2ClientSecrets secrets) {
        this.credentials = credentials;
        this.secrets = secrets;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Oauth2CredentialParams parse(Params p) {
        return Oauth2CredentialParams.read(p);
    }

    @Override
    public PolicyFacts policyFacts(StateReads organization, Oauth2CredentialParams params) {
        return PolicyFacts.params(params.policyParams());
    }

    @Override
    public Object execute(ActivityContext context, Oauth2CredentialParams params) {
        String org = context.organizationId();
        params.requireUnique(credentials, context.tx(), org, Optional.empty());
        String id = context.ids().next();
        Oauth2Credential credential = new Oauth2Credential(
                id,
                org,
                params.provider(),
                params.clientId(),
                params.encryptedClientSecret(),
                secrets.reseal(context.tx(), org, id, params.encryptedClientSecret(), params.secretField()),
                context.now(),
                context.now());
        credentials.insert(context.tx(), credential);
        return new Result(id);
    }

    /** {@code createOauth2CredentialResult}. */
    public record Result(String oauth2CredentialId) {}
}
