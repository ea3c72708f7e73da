package dev.keyhaven.server.oauthlogin;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.oidc.VerifiedIdToken;
import dev.keyhaven.server.session.BundleKeys;
import dev.keyhaven.server.user.OauthProvider;
import dev.keyhaven.server.user.SignInKeyType;

/**
 * {@code oauth}, the older OIDC sign-in that published SDKs still send: verifies the OIDC token (trusted issuer,
 * signature, audience, expiry, and a {@code nonce} that is the SHA-256 hex of {@code targetPublicKey} as sent), finds
 * the user of this organization holding an OAuth provider with its identity, uses the token up, and gives the user a
 * fresh expiring API key ({@code Oauth - <epoch seconds>} unless {@code apiKeyName} says otherwise) whose private key
 * comes back as a credential bundle encrypted to {@code targetPublicKey} ({@code oauthResult}).
 */
final class OauthHandler implements ActivityHandler<OauthHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
                    "oauth",
                    ActivityResource.AUTH,
                    ActivityAction.CREATE,
                    new ActivityVersion(ActivityType.OAUTH, "oauthIntent", "oauthResult"))
            .initiatedByParent();

    private final OauthLogin logins;
    private final BundleKeys keys;

    OauthHandler(OauthLogin logins, BundleKeys keys) {
        this.logins = logins;
        this.keys = keys;
    }

    /** The verified token and the key to issue. */
    public record Intent(VerifiedIdToken token, BundleKeys.Request key) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        String token = p.requiredString("oidcToken");
        BundleKeys.Request key = BundleKeys.read(p, SignInKeyType.OAUTH);
        return new Intent(logins.verifyForTarget(token, p.requiredString("targetPublicKey")), key);
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        String org = context.organizationId();
        String userId = logins.owners(context.tx(), org, intent.token()).stream()
                .filter(p -> p.organizationId().equals(org))
                .map(OauthProvider::userId)
                .findFirst()
                .orElseThrow(() -> ApiException.notFound("no user of this organization has an OAuth provider for "
                        + "this OIDC token's issuer, audience and subject"));
        logins.spend(context.tx(), intent.token(), context.now());
        BundleKeys.Issued issued = keys.issue(context.tx(), org, userId, intent.key(), context.now(), context.ids());
        return new Result(userId, issued.apiKeyId(), issued.credentialBundle());
    }

    /** {@code oauthResult}. */
    public record Result(String userId, String apiKeyId, String credentialBundle) {
        @Override
        public String toString() {
            return "Result[" + userId + ", " + apiKeyId + ", bundle redacted]";
        }
    }
}
