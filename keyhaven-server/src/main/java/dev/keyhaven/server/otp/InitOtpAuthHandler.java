package dev.keyhaven.server.otp;

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
import dev.keyhaven.server.recovery.CodeMail;
import dev.keyhaven.server.state.StateReads;
import java.util.Map;
import java.util.Optional;

/**
 * {@code init_otp_auth} (V1–V3), the older OTP sign-in that published SDKs still send: sends a code by email or SMS
 * and answers with the OTP's id only ({@code initOtpAuthResult} / {@code initOtpAuthResultV2}); {@code otp_auth}
 * then takes the code in plain text. V1 codes are six digits (V1 has no length or alphabet to ask for); V2 and V3
 * take {@code otpLength} (default 9) and {@code alphanumeric} (default true), V3 also {@code appName} and
 * {@code expirationSeconds} (default 5 minutes, at most 10). V1 and V2 have no {@code appName}: the email's is
 * {@code emailCustomization.appName}, or {@value #DEFAULT_APP_NAME}.
 */
final class InitOtpAuthHandler implements ActivityHandler<OtpService.CodeRequest> {
    static final String DEFAULT_APP_NAME = "Keyhaven";

    private static final ActivitySpec SPEC = ActivitySpec.of(
                    "init_otp_auth",
                    ActivityResource.AUTH,
                    ActivityAction.CREATE,
                    new ActivityVersion(ActivityType.INIT_OTP_AUTH_V3, "initOtpAuthIntentV3", "initOtpAuthResultV2"),
                    new ActivityVersion(ActivityType.INIT_OTP_AUTH_V2, "initOtpAuthIntentV2", "initOtpAuthResultV2"),
                    new ActivityVersion(ActivityType.INIT_OTP_AUTH, "initOtpAuthIntent", "initOtpAuthResult"))
            .initiatedByParent();
    private static final int DEFAULT_LENGTH = 9;
    private static final int V1_LENGTH = 6;

    private final OtpService otps;
    private final CodeMail mail;

    InitOtpAuthHandler(OtpService otps, CodeMail mail) {
        this.otps = otps;
        this.mail = mail;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public OtpService.CodeRequest parse(Params p) {
        return parse(p, ActivityType.INIT_OTP_AUTH_V3);
    }

    @Override
    public OtpService.CodeRequest parse(Params p, ActivityType type) {
        OtpType otpType = p.requiredEnum("otpType", OtpType.class);
        String contact = OtpService.contact(otpType, p.requiredString("contact"), p.pathOf("contact"));
        boolean v1 = type == ActivityType.INIT_OTP_AUTH;
        String appName;
        if (type == ActivityType.INIT_OTP_AUTH_V3) {
            appName = CodeMail.appName(p, "appName");
        } else {
            Optional<Params> customization = p.optionalObject("emailCustomization");
            appName = customization.isPresent()
                            && customization
                                    .get()
                                    .optionalString("appName")
                                    .filter(a -> !a.isBlank())
                                    .isPresent()
                    ? CodeMail.appName(customization.get(), "appName")
                    : DEFAULT_APP_NAME;
        }
        int length = v1
                ? V1_LENGTH
                : OtpService.codeLength(p.optionalInt("otpLength"), DEFAULT_LENGTH, p.pathOf("otpLength"));
        boolean alphanumeric = !v1 && p.optionalBoolean("alphanumeric", true);
        long expiration = type == ActivityType.INIT_OTP_AUTH_V3
                ? OtpService.otpLifetime(p.optionalUint64("expirationSeconds"), p.pathOf("expirationSeconds"))
                : OtpService.DEFAULT_OTP_SECONDS;
        Optional<CodeMail.Look> look =
                otpType == OtpType.OTP_TYPE_EMAIL ? Optional.of(mail.read(p, appName)) : Optional.empty();
        Optional<String> smsTemplate = p.optionalObject("smsCustomization")
                .flatMap(s -> s.optionalString("template"))
                .filter(t -> !t.isBlank());
        return new OtpService.CodeRequest(
                otpType, contact, appName, length, alphanumeric, expiration, look, smsTemplate);
    }

    /** {@code activity.params.otp_length}, as for {@code init_otp} (turnkey-clients.md §3). */
    @Override
    public PolicyFacts policyFacts(StateReads organization, OtpService.CodeRequest request) {
        return PolicyFacts.params(Map.of("otp_length", Value.of(request.length())));
    }

    @Override
    public Object execute(ActivityContext context, OtpService.CodeRequest request) {
        OtpService.Initiated initiated = otps.init(
                context.tx(),
                context.organizationId(),
                OtpFlow.CREDENTIAL_BUNDLE,
                request,
                Optional.empty(),
                context.now(),
                context.ids());
        // The older flow has no encryption target: the code comes back in plain text to otp_auth.
        return new Result(initiated.otpId());
    }

    /** {@code initOtpAuthResult} and {@code initOtpAuthResultV2}. */
    public record Result(String otpId) {}
}
