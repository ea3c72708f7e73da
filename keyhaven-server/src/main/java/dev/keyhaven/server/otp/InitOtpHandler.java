package dev.keyhaven.server.otp;

import static dev.keyhaven.server.activity.VersionTable.version;

import dev.keyhaven.policy.Value;
import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.PolicyFacts;
import dev.keyhaven.server.activity.VersionTable;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.recovery.CodeMail;
import dev.keyhaven.server.state.StateReads;
import java.util.Map;
import java.util.Optional;

/**
 * {@code init_otp}: sends a code by email or SMS and answers with the OTP's id. Turnkey's defaults: 9 characters,
 * alphanumeric (Crockford base32), 5 minutes.
 *
 * <p>V3 (result {@code initOtpResultV2}) also answers with the OTP's signed encryption target: its code comes back
 * encrypted to {@code verify_otp}. V1 and V2 (sent by {@code @turnkey/http} 3.4–3.18 and sdk-server 4–5) answer with
 * the id only ({@code initOtpResult}): their code comes back in plain text, so their OTPs belong to another flow
 * ({@link OtpFlow#PLAIN_CODE_TOKEN}) that the encrypted verification does not accept, nor they its OTPs. V2 has V3's
 * fields; V1 has no {@code appName}: the email's is {@code emailCustomization.appName}, or {@value #DEFAULT_APP_NAME}.
 */
final class InitOtpHandler implements ActivityHandler<InitOtpHandler.Intent> {
    static final String DEFAULT_APP_NAME = "Keyhaven";
    private static final int DEFAULT_LENGTH = 9;

    private final OtpService otps;
    private final CodeMail mail;
    private final VersionTable<Intent> versions;
    private final ActivitySpec spec;

    public InitOtpHandler(OtpService otps, CodeMail mail) {
        this.otps = otps;
        this.mail = mail;
        // The readers need the mail templates, so the table belongs to the instance.
        this.versions = VersionTable.of(
                version(
                        ActivityType.INIT_OTP_V3,
                        "initOtpIntentV3",
                        "initOtpResultV2",
                        p -> new Intent(read(p, CodeMail.appName(p, "appName")), OtpFlow.VERIFICATION_TOKEN)),
                version(
                        ActivityType.INIT_OTP_V2,
                        "initOtpIntentV2",
                        "initOtpResult",
                        InitOtpHandler::idOnly,
                        p -> new Intent(read(p, CodeMail.appName(p, "appName")), OtpFlow.PLAIN_CODE_TOKEN)),
                version(
                        ActivityType.INIT_OTP,
                        "initOtpIntent",
                        "initOtpResult",
                        InitOtpHandler::idOnly,
                        p -> new Intent(
                                read(p, CodeMail.customizationAppName(p, DEFAULT_APP_NAME)),
                                OtpFlow.PLAIN_CODE_TOKEN)));
        this.spec = ActivitySpec.of("init_otp", ActivityResource.OTP, ActivityAction.CREATE, versions)
                .initiatedByParent();
    }

    /** What to send, and the flow whose verification alone may check the code. */
    public record Intent(OtpService.CodeRequest code, OtpFlow flow) {}

    /** {@code initOtpResult} (V1, V2): the id, without an encryption target. */
    public record PlainInitiated(String otpId) {}

    @Override
    public ActivitySpec spec() {
        return spec;
    }

    @Override
    public Intent parse(Params p) {
        return parse(p, ActivityType.INIT_OTP_V3);
    }

    @Override
    public Intent parse(Params p, ActivityType type) {
        return versions.read(p, type);
    }

    private OtpService.CodeRequest read(Params p, String appName) {
        OtpType type = p.requiredEnum("otpType", OtpType.class);
        String contact = OtpService.contact(type, p.requiredString("contact"), p.pathOf("contact"));
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

    private static Object idOnly(Object result) {
        return new PlainInitiated(((OtpService.Initiated) result).otpId());
    }

    /** {@code activity.params.otp_length} (turnkey-api.md §4). */
    @Override
    public PolicyFacts policyFacts(StateReads organization, Intent request) {
        return PolicyFacts.params(Map.of("otp_length", Value.of(request.code().length())));
    }

    @Override
    public Object execute(ActivityContext context, Intent request) {
        return otps.init(
                context.tx(),
                context.organizationId(),
                request.flow(),
                request.code(),
                Optional.empty(),
                context.now(),
                context.ids());
    }
}
