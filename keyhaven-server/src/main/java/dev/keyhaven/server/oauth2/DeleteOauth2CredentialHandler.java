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

/** {@code delete_oauth2_credential}: the credential and its sealed secret are gone at once. */
final class DeleteOauth2CredentialHandler implements ActivityHandler<String> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "delete_oauth2_credential",
            ActivityResource.CREDENTIAL,
            ActivityAction.DELETE,
            new ActivityVersion(
                    ActivityType.DELETE_OAUTH2_CREDENTIAL,
                    "deleteOauth2CredentialIntent",
                    "deleteOauth2CredentialResult"));

    private final Oauth2CredentialRepository credentials;

    public DeleteOauth2CredentialHandler(Oauth2CredentialRepository credentials) {
        this.credentials = credentials;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public String parse(Params p) {
        return p.requiredString("oauth2CredentialId");
    }

    @Override
    public PolicyFacts policyFacts(StateReads organization, String credentialId) {
        return PolicyFacts.params(Map.of("oauth2_credential_id", Value.of(credentialId)));
    }

    @Override
    public Object execute(ActivityContext context, String credentialId) {
        Oauth2Credentials.require(credentials, context.tx(), context.organizationId(), credentialId);
        credentials.delete(context.tx(), context.organizationId(), credentialId);
        return new Result(credentialId);
    }

    /** {@code deleteOauth2CredentialResult}. */
    public record Result(String oauth2CredentialId) {}
}
