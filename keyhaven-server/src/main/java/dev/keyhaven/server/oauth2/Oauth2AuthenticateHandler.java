package dev.keyhaven.server.oauth2;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityEffect;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.activity.PolicyFacts;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.state.StateReads;
import java.util.Map;
import java.util.Optional;

/**
 * {@code oauth2_authenticate}: exchanges an authorization code with the provider through a stored credential and
 * returns an OIDC token for the provider's user. Its effect is {@link ActivityEffect#NONE}: it changes nothing but
 * its own record, so the engine runs it on the organization's remembered state outside any transaction and only
 * the activity's record takes a (short) write transaction, after the network exchange.
 */
final class Oauth2AuthenticateHandler implements ActivityHandler<Oauth2AuthenticateHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
                    "oauth2_authenticate",
                    ActivityResource.AUTH,
                    ActivityAction.CREATE,
                    new ActivityVersion(
                            ActivityType.OAUTH2_AUTHENTICATE, "oauth2AuthenticateIntent", "oauth2AuthenticateResult"))
            .withEffect(ActivityEffect.NONE);

    private final Oauth2CredentialRepository credentials;
    private final Oauth2Authenticator authenticator;

    public Oauth2AuthenticateHandler(Oauth2CredentialRepository credentials, Oauth2Authenticator authenticator) {
        this.credentials = credentials;
        this.authenticator = authenticator;
    }

    /** The validated parameters. */
    public record Intent(String credentialId, Oauth2Authenticator.SignIn signIn) {}

    /** The remembered lookup of one credential (credentials change only through activities that move the state). */
    private record CredentialLookup(String credentialId) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        return new Intent(p.requiredString("oauth2CredentialId"), Oauth2Authenticator.SignIn.read(p));
    }

    @Override
    public PolicyFacts policyFacts(StateReads organization, Intent intent) {
        return PolicyFacts.params(Map.of("oauth2_credential_id", dev.keyhaven.policy.Value.of(intent.credentialId())));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        if (context.transaction().isPresent()) {
            // The engine falls back to one write transaction after repeated races with changes of the
            // organization; a provider's latency must never hold the database's write lock, so refuse instead.
            throw new ApiException(
                    ErrorCode.UNAVAILABLE,
                    "the organization is changing too quickly to " + "authenticate now; retry the sign-in");
        }
        String org = context.organizationId();
        Optional<Oauth2Credential> credential = context.reads()
                .get(
                        new CredentialLookup(intent.credentialId()),
                        tx -> credentials.find(tx, org, intent.credentialId()));
        return new Result(authenticator.authenticate(
                credential.orElseThrow(() ->
                        Oauth2Credentials.notFound("no OAuth 2.0 credential found with id " + intent.credentialId())),
                intent.signIn()));
    }

    /** {@code oauth2AuthenticateResult}. */
    public record Result(String oidcToken) {
        @Override
        public String toString() {
            return "Result[oidcToken redacted]";
        }
    }
}
