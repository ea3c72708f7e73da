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
import dev.keyhaven.server.session.BundleKeys;
import dev.keyhaven.server.user.SignInKeyType;

/**
 * {@code otp_auth}, the older OTP sign-in's second step: checks the code {@code init_otp_auth} sent (in plain text,
 * counting wrong codes like {@code verify_otp}), finds the user of this organization with that contact, and gives
 * them a fresh expiring API key ({@code OTP Auth - <epoch seconds>} unless {@code apiKeyName} says otherwise) whose
 * private key comes back as a credential bundle encrypted to {@code targetPublicKey} ({@code otpAuthResult}).
 */
final class OtpAuthHandler implements ActivityHandler<OtpAuthHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
                    "otp_auth",
                    ActivityResource.AUTH,
                    ActivityAction.CREATE,
                    new ActivityVersion(ActivityType.OTP_AUTH, "otpAuthIntent", "otpAuthResult"))
            .initiatedByParent();

    private final OtpService otps;
    private final BundleKeys keys;

    OtpAuthHandler(OtpService otps, BundleKeys keys) {
        this.otps = otps;
        this.keys = keys;
    }

    /** The OTP, its code as the user typed it, and the key to issue. */
    public record Intent(String otpId, String otpCode, BundleKeys.Request key) {
        @Override
        public String toString() {
            return "Intent[" + otpId + ", code redacted]";
        }
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        return new Intent(
                p.requiredString("otpId"), p.requiredString("otpCode"), BundleKeys.read(p, SignInKeyType.OTP_AUTH));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        String org = context.organizationId();
        OtpService.TokenClaims proven =
                otps.verifyCode(context.tx(), org, intent.otpId(), intent.otpCode(), context.now(), context.ids());
        String userId = otps.userIn(context.tx(), org, proven)
                .orElseThrow(() ->
                        ApiException.notFound("no user of this organization has the contact this code was sent to"));
        BundleKeys.Issued issued = keys.issue(context.tx(), org, userId, intent.key(), context.now(), context.ids());
        return new Result(userId, issued.apiKeyId(), issued.credentialBundle());
    }

    /** {@code otpAuthResult}. */
    public record Result(String userId, String apiKeyId, String credentialBundle) {
        @Override
        public String toString() {
            return "Result[" + userId + ", " + apiKeyId + ", bundle redacted]";
        }
    }
}
