package dev.keyhaven.server.otp;

import static dev.keyhaven.server.testing.ApiErrors.isError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.JsonMappers;
import dev.keyhaven.server.api.Params;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** verify_otp's readers: the unversioned type's two shapes are told apart by their fields, and fail closed. */
class VerifyOtpReadersTest {

    private static Params params(String json) {
        return Params.of(JsonMappers.strict().readTree(json), "parameters");
    }

    @Test
    void v1WithAPlainCodeIsThePlainShape() {
        VerifyOtpHandler.Intent read = VerifyOtpHandler.readV1(
                params("{\"otpId\":\"o\",\"otpCode\":\"123456\",\"publicKey\":\"02ab\",\"expirationSeconds\":\"60\"}"));

        assertThat(read)
                .isEqualTo(new VerifyOtpHandler.Plain("o", "123456", Optional.of("02ab"), "parameters.publicKey", 60));
        assertThat(read.toString()).doesNotContain("123456");
    }

    @Test
    void v1WithAnEncryptedBundleIsV2sShapeAsCoreSendsIt() {
        VerifyOtpHandler.Intent read =
                VerifyOtpHandler.readV1(params("{\"otpId\":\"o\",\"encryptedOtpBundle\":\"b\"}"));

        assertThat(read)
                .isEqualTo(new VerifyOtpHandler.Encrypted(
                        "o", "b", "parameters.encryptedOtpBundle", OtpService.DEFAULT_TOKEN_SECONDS));
    }

    @Test
    void v1WithBothOrNeitherIsRefusedNamingOtpCode() {
        assertThatThrownBy(() -> VerifyOtpHandler.readV1(
                        params("{\"otpId\":\"o\",\"otpCode\":\"1\",\"encryptedOtpBundle\":\"b\"}")))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, "parameters.otpCode"));
        assertThatThrownBy(() -> VerifyOtpHandler.readV1(params("{\"otpId\":\"o\"}")))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, "parameters.otpCode"));
        // An empty code is no code: not mistaken for the other shape.
        assertThatThrownBy(() -> VerifyOtpHandler.readV1(params("{\"otpId\":\"o\",\"otpCode\":\"\"}")))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, "parameters.otpCode"));
    }

    @Test
    void v2RefusesAPlainCode() {
        assertThatThrownBy(() -> VerifyOtpHandler.readV2(
                        params("{\"otpId\":\"o\",\"otpCode\":\"1\",\"encryptedOtpBundle\":\"b\"}")))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, "parameters.otpCode"));
        assertThat(VerifyOtpHandler.readV2(params("{\"otpId\":\"o\",\"encryptedOtpBundle\":\"b\"}")))
                .isInstanceOf(VerifyOtpHandler.Encrypted.class);
    }
}
