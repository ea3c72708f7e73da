package dev.keyhaven.server.oauth2;

import dev.keyhaven.policy.Value;
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
import java.util.Map;
import java.util.Optional;

/**
 * {@code update_oauth2_credential}: replaces provider, client id and secret of a credential (Turnkey's intent
 * requires all three; the secret is re-sealed from the new envelope).
 */
final class UpdateOauth2CredentialHandler implements ActivityHandler<UpdateOauth2CredentialHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "update_oauth2_credential",
            ActivityResource.CREDENTIAL,
            ActivityAction.UPDATE,
            new ActivityVersion(
                    ActivityType.UPDATE_OAUTH2_CREDENTIAL,
                    "updateOauth2CredentialIntent",
                    "updateOauth2CredentialResult"));

    private final Oauth2CredentialRepository credentials;
    private final Oauth2ClientSecrets secrets;

    public UpdateOauth2CredentialHandler(Oauth2CredentialRepository credentials, Oauth2ClientSecrets secrets) {
        this.credentials = credentials;
        this.secrets = secrets;
    }

    /** The validated parameters. */
    public record Intent(String credentialId, Oauth2CredentialParams fields) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        return new Intent(p.requiredString("oauth2CredentialId"), Oauth2CredentialParams.read(p));
    }

    @Override
    public PolicyFacts policyFacts(StateReads organization, Intent intent) {
        Map<String, Value> params = intent.fields().policyParams();
        params.put("oauth2_credential_id", Value.of(intent.credentialId()));
        return PolicyFacts.params(params);
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        String org = context.organizationId();
        Oauth2Credential existing = Oauth2Credentials.require(credentials, context.tx(), org, intent.credentialId());
        Oauth2CredentialParams fields = intent.fields();
        fields.requireUnique(credentials, context.tx(), org, Optional.of(existing.id()));
        credentials.update(
                context.tx(),
                new Oauth2Credential(
                        existing.id(),
                        org,
                        fields.provider(),
                        fields.clientId(),
                        fields.encryptedClientSecret(),
                        secrets.reseal(
                                context.tx(), org, existing.id(), fields.encryptedClientSecret(), fields.secretField()),
                        existing.createdAt(),
                        context.now()));
        return new Result(existing.id());
    }

    /** {@code updateOauth2CredentialResult}. */
    public record Result(String oauth2CredentialId) {}
}
