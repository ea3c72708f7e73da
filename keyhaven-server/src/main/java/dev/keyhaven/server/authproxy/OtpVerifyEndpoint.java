package dev.keyhaven.server.authproxy;

import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.otp.OtpService;
import dev.keyhaven.server.tx.Transactor;
import java.time.Clock;
import java.util.Map;

/**
 * {@code /v1/otp_verify_v2} ({@code {otpId, encryptedOtpBundle}}: the code encrypted to the OTP's target with the
 * key the token is bound to) and the older {@code /v1/otp_verify} ({@code {otpId, otpCode, publicKey?}}: the code in
 * plain text); both answer {@code {verificationToken}}.
 */
final class OtpVerifyEndpoint {
    private final OtpService otps;
    private final Transactor transactor;
    private final Clock clock;
    private final Ids ids;

    OtpVerifyEndpoint(OtpService otps, Transactor transactor, Clock clock, Ids ids) {
        this.otps = otps;
        this.transactor = transactor;
        this.clock = clock;
        this.ids = ids;
    }

    /** {@code otp_verify_v2}. */
    Object encrypted(AuthProxyRequest request) {
        Params body = request.body();
        String otpId = body.requiredString("otpId");
        String bundle = body.requiredString("encryptedOtpBundle");
        OtpService.Verified verified = transactor.write(tx -> otps.verify(
                tx,
                request.config().organizationId(),
                otpId,
                bundle,
                body.pathOf("encryptedOtpBundle"),
                OtpService.DEFAULT_TOKEN_SECONDS,
                clock.instant(),
                ids));
        return Map.of("verificationToken", verified.verificationToken());
    }

    /** {@code otp_verify}. */
    Object plain(AuthProxyRequest request) {
        Params body = request.body();
        String otpId = body.requiredString("otpId");
        String code = body.requiredString("otpCode");
        OtpService.Verified verified = transactor.write(tx -> otps.verifyPlain(
                tx,
                request.config().organizationId(),
                otpId,
                code,
                body.optionalString("publicKey"),
                body.pathOf("publicKey"),
                OtpService.DEFAULT_TOKEN_SECONDS,
                clock.instant(),
                ids));
        return Map.of("verificationToken", verified.verificationToken());
    }
}
