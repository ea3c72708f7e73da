package dev.keyhaven.server.otp;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.recovery.CodeMail;
import java.util.Optional;

/**
 * {@code init_otp} (V3, result {@code initOtpResultV2}): sends a code by email or SMS and answers with the OTP's id
 * and its signed target bundle. Turnkey's defaults: 9 characters, alphanumeric (Crockford base32), 5 minutes.
 */
final class InitOtpHandler implements ActivityHandler<OtpService.CodeRequest> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
                    "init_otp",
                    ActivityResource.OTP,
                    ActivityAction.CREATE,
                    new ActivityVersion(ActivityType.INIT_OTP_V3, "initOtpIntentV3", "initOtpResultV2"))
            .initiatedByParent();
    private static final int DEFAULT_LENGTH = 9;

    private final OtpService otps;
    private final CodeMail mail;

    public InitOtpHandler(OtpService otps, CodeMail mail) {
        this.otps = otps;
        this.mail = mail;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public OtpService.CodeRequest parse(Params p) {
        OtpType type = p.requiredEnum("otpType", OtpType.class);
        String contact = OtpService.contact(type, p.requiredString("contact"), p.pathOf("contact"));
        String appName = CodeMail.appName(p, "appName");
        int length = OtpService.codeLength(p.optionalInt("otpLength"), DEFAULT_LENGTH, p.pathOf("otpLength"));
        boolean alphanumeric = p.optionalBoolean("alphanumeric", true);
        long expiration = OtpService.otpLifetime(p.optionalUint64("expirationSeconds"), p.pathOf("expirationSeconds"));
        Optional<CodeMail.Look> look =
                type == OtpType.OTP_TYPE_EMAIL ? Optional.of(mail.read(p, appName)) : Optional.empty();
        Optional<String> smsTemplate = p.optionalObject("smsCustomization")
                .flatMap(s -> s.optionalString("template"))
                .filter(t -> !t.isBlank());
        return new OtpService.CodeRequest(type, contact, appName, length, alphanumeric, expiration, look, smsTemplate);
    }

    /** {@code activity.params.otp_length} (turnkey-api.md §4). */
    @Override
    public dev.keyhaven.server.activity.PolicyFacts policyFacts(
            dev.keyhaven.server.state.StateReads organization, OtpService.CodeRequest request) {
        return dev.keyhaven.server.activity.PolicyFacts.params(
                java.util.Map.of("otp_length", dev.keyhaven.policy.Value.of(request.length())));
    }

    @Override
    public Object execute(ActivityContext context, OtpService.CodeRequest request) {
        return otps.init(
                context.tx(), context.organizationId(), request, Optional.empty(), context.now(), context.ids());
    }
}
