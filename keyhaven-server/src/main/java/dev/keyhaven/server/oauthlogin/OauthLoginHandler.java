package dev.keyhaven.server.oauthlogin;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.activity.PolicyFacts;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.session.Sessions;
import dev.keyhaven.server.state.StateReads;
import dev.keyhaven.server.user.OauthProvider;

/**
 * {@code oauth_login}: logs in the user of this organization holding an OAuth provider with the OIDC token's
 * identity, registering {@code publicKey} (bound by the token's nonce) as a session key ({@code oauthLoginResult
 * {session}}).
 */
final class OauthLoginHandler implements ActivityHandler<OauthLogin.Request> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "oauth_login",
            ActivityResource.AUTH,
            ActivityAction.CREATE,
            new ActivityVersion(ActivityType.OAUTH_LOGIN, "oauthLoginIntent", "oauthLoginResult"));

    private final OauthLogin logins;

    public OauthLoginHandler(OauthLogin logins) {
        this.logins = logins;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public OauthLogin.Request parse(Params p) {
        return logins.read(p, Sessions.DEFAULT_SECONDS);
    }

    /** {@code activity.params.session_profile_id} (turnkey-api.md §4; '' when none is given). */
    @Override
    public PolicyFacts policyFacts(StateReads organization, OauthLogin.Request request) {
        return Sessions.loginFacts(request.sessionProfileId());
    }

    @Override
    public Object execute(ActivityContext context, OauthLogin.Request request) {
        String org = context.organizationId();
        String userId = logins.owners(context.tx(), org, request.token()).stream()
                .filter(p -> p.organizationId().equals(org))
                .map(OauthProvider::userId)
                .findFirst()
                .orElseThrow(() -> ApiException.notFound("no user of this organization has an OAuth provider for "
                        + "this OIDC token's issuer, audience and subject"));
        return new Result(logins.login(context.tx(), org, userId, request, context.now(), context.ids()));
    }

    /** {@code oauthLoginResult}. */
    public record Result(String session) {
        @Override
        public String toString() {
            return "Result[session]";
        }
    }
}
