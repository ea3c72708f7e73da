package dev.keyhaven.server.otp;

import static dev.keyhaven.server.activity.VersionTable.version;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.VersionTable;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import java.util.Optional;

/**
 * {@code verify_otp}: checks an OTP's code and returns a verification token ({@code verifyOtpResult}).
 *
 * <p>V2 takes the code encrypted to the target {@code init_otp} V3 returned ({@code encryptedOtpBundle}). The
 * unversioned type has two shapes in published clients: {@code @turnkey/http} 3.4–3.18 and sdk-server 4–5 send
 * {@code {otpId, otpCode, expirationSeconds?, publicKey?}} with the code in plain text, for an OTP of {@code init_otp}
 * V1 or V2; {@code @turnkey/core} 2.x sends V2's parameters under it. The shape is told by its fields, exactly one of
 * {@code otpCode} and {@code encryptedOtpBundle}; a request with both or neither is refused, and each shape accepts
 * only the OTPs of its own flow ({@link OtpFlow}).
 */
final class VerifyOtpHandler implements ActivityHandler<VerifyOtpHandler.Intent> {
    static final VersionTable<Intent> VERSIONS = VersionTable.of(
            version(ActivityType.VERIFY_OTP_V2, "verifyOtpIntentV2", "verifyOtpResult", VerifyOtpHandler::readV2),
            version(ActivityType.VERIFY_OTP, "verifyOtpIntent", "verifyOtpResult", VerifyOtpHandler::readV1));

    private static final ActivitySpec SPEC = ActivitySpec.of(
                    "verify_otp", ActivityResource.OTP, ActivityAction.VERIFY, VERSIONS)
            .initiatedByParent();

    private final OtpService otps;

    public VerifyOtpHandler(OtpService otps) {
        this.otps = otps;
    }

    /** The validated parameters: one of the two shapes. */
    public sealed interface Intent permits Encrypted, Plain {}

    /** The OTP, the encrypted code, and the token's lifetime. */
    public record Encrypted(String otpId, String encryptedOtpBundle, String bundleField, long tokenSeconds)
            implements Intent {}

    /** The OTP, the code in plain text, the key the token is bound to if any, and the token's lifetime. */
    public record Plain(
            String otpId, String otpCode, Optional<String> publicKey, String publicKeyField, long tokenSeconds)
            implements Intent {
        @Override
        public String toString() {
            return "Plain[" + otpId + ", code redacted]";
        }
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        return parse(p, ActivityType.VERIFY_OTP_V2);
    }

    @Override
    public Intent parse(Params p, ActivityType type) {
        return VERSIONS.read(p, type);
    }

    static Intent readV2(Params p) {
        if (p.has("otpCode")) {
            throw ApiException.badField(
                    p.pathOf("otpCode"),
                    "is not a parameter of ACTIVITY_TYPE_VERIFY_OTP_V2: send the code encrypted in encryptedOtpBundle");
        }
        return encrypted(p);
    }

    static Intent readV1(Params p) {
        boolean plain = p.has("otpCode");
        boolean encrypted = p.has("encryptedOtpBundle");
        if (plain && encrypted) {
            throw ApiException.badField(
                    p.pathOf("otpCode"),
                    "must not be sent with encryptedOtpBundle: send one of the code in plain text (for an OTP of "
                            + "init_otp V1 or V2) and the encrypted code (for one of init_otp V3)");
        }
        if (!plain && !encrypted) {
            throw ApiException.badField(
                    p.pathOf("otpCode"),
                    "is required (or encryptedOtpBundle, the code encrypted for an OTP of init_otp V3)");
        }
        if (encrypted) {
            return encrypted(p);
        }
        return new Plain(
                p.requiredString("otpId"),
                p.requiredString("otpCode"),
                p.optionalString("publicKey").filter(k -> !k.isEmpty()),
                p.pathOf("publicKey"),
                OtpService.tokenLifetime(p.optionalUint64("expirationSeconds"), p.pathOf("expirationSeconds")));
    }

    private static Encrypted encrypted(Params p) {
        return new Encrypted(
                p.requiredString("otpId"),
                p.requiredString("encryptedOtpBundle"),
                p.pathOf("encryptedOtpBundle"),
                OtpService.tokenLifetime(p.optionalUint64("expirationSeconds"), p.pathOf("expirationSeconds")));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        return switch (intent) {
            case Encrypted e ->
                otps.verify(
                        context.tx(),
                        context.organizationId(),
                        e.otpId(),
                        e.encryptedOtpBundle(),
                        e.bundleField(),
                        e.tokenSeconds(),
                        context.now(),
                        context.ids());
            case Plain plain ->
                otps.verifyPlainCode(
                        context.tx(),
                        context.organizationId(),
                        plain.otpId(),
                        plain.otpCode(),
                        plain.publicKey(),
                        plain.publicKeyField(),
                        plain.tokenSeconds(),
                        context.now(),
                        context.ids());
        };
    }
}
