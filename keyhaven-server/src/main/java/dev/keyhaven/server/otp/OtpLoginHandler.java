package dev.keyhaven.server.otp;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.session.Sessions;

/**
 * {@code otp_login} (V2, and the unversioned type): logs in the user of this organization whose contact the
 * verification token proves, registering {@code publicKey} as a session key ({@code otpLoginResult {session}}).
 * The token may come from this organization or its parent (the usual split: init and verify in the parent, login
 * in the user's sub-organization).
 */
final class OtpLoginHandler implements ActivityHandler<OtpService.LoginRequest> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
                    "otp_login",
                    ActivityResource.AUTH,
                    ActivityAction.CREATE,
                    new ActivityVersion(ActivityType.OTP_LOGIN_V2, "otpLoginIntentV2", "otpLoginResult"),
                    new ActivityVersion(ActivityType.OTP_LOGIN, "otpLoginIntentV2", "otpLoginResult"))
            .initiatedByParent();

    private final OtpService otps;

    public OtpLoginHandler(OtpService otps) {
        this.otps = otps;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public OtpService.LoginRequest parse(Params p) {
        return OtpService.readLogin(p, Sessions.DEFAULT_SECONDS, true);
    }

    /**
     * The unversioned type also logs in with the token of {@code verify_otp} V1 given no {@code publicKey}, which is
     * bound to no key: its {@code clientSignature} is required only when the token is bound (as every V2 token is).
     */
    @Override
    public OtpService.LoginRequest parse(Params p, ActivityType type) {
        return OtpService.readLogin(p, Sessions.DEFAULT_SECONDS, type != ActivityType.OTP_LOGIN);
    }

    /** {@code activity.params.session_profile_id} (turnkey-api.md §4; '' when none is given). */
    @Override
    public dev.keyhaven.server.activity.PolicyFacts policyFacts(
            dev.keyhaven.server.state.StateReads organization, OtpService.LoginRequest request) {
        return Sessions.loginFacts(request.sessionProfileId());
    }

    @Override
    public Object execute(ActivityContext context, OtpService.LoginRequest request) {
        String org = context.organizationId();
        OtpService.TokenClaims claims = otps.claims(context.tx(), org, request, context.now());
        String userId = otps.userIn(context.tx(), org, claims)
                .orElseThrow(() -> ApiException.notFound(
                        "no user of this organization has the contact this verification token proves"));
        return new Result(otps.login(context.tx(), org, userId, claims, request, context.now(), context.ids()));
    }

    /** {@code otpLoginResult}. */
    public record Result(String session) {
        @Override
        public String toString() {
            return "Result[session]";
        }
    }
}
