package dev.keyhaven.server.otp;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.Params;

/**
 * {@code verify_otp} (V2, and the unversioned type {@code @turnkey/core} sends with the same shape): opens the
 * encrypted code, checks it and returns a verification token ({@code verifyOtpResult}).
 */
final class VerifyOtpHandler implements ActivityHandler<VerifyOtpHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
                    "verify_otp",
                    ActivityResource.OTP,
                    ActivityAction.VERIFY,
                    new ActivityVersion(ActivityType.VERIFY_OTP_V2, "verifyOtpIntentV2", "verifyOtpResult"),
                    new ActivityVersion(ActivityType.VERIFY_OTP, "verifyOtpIntentV2", "verifyOtpResult"))
            .initiatedByParent();

    private final OtpService otps;

    public VerifyOtpHandler(OtpService otps) {
        this.otps = otps;
    }

    /** The OTP, the encrypted code, and the token's lifetime. */
    public record Intent(String otpId, String encryptedOtpBundle, String bundleField, long tokenSeconds) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        return new Intent(
                p.requiredString("otpId"),
                p.requiredString("encryptedOtpBundle"),
                p.pathOf("encryptedOtpBundle"),
                OtpService.tokenLifetime(p.optionalUint64("expirationSeconds"), p.pathOf("expirationSeconds")));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        return otps.verify(
                context.tx(),
                context.organizationId(),
                intent.otpId(),
                intent.encryptedOtpBundle(),
                intent.bundleField(),
                intent.tokenSeconds(),
                context.now(),
                context.ids());
    }
}
