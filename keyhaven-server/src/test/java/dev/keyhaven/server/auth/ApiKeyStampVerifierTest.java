package dev.keyhaven.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.JsonMappers;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ApiKeyStampVerifierTest {
    private static final byte[] BODY = "{\"organizationId\":\"o\"}".getBytes(StandardCharsets.UTF_8);
    private final ApiKeyStampVerifier verifier = new ApiKeyStampVerifier(JsonMappers.strict(), 2);

    @ParameterizedTest
    @EnumSource(ApiKeyStamper.Curve.class)
    void verifiesStampsOfEveryCurveAndReportsTheCanonicalKey(ApiKeyStamper.Curve curve) {
        try (ApiKeyStamper stamper = ApiKeyStamper.generate(curve, new SecureRandom())) {
            VerifiedStamp stamp = verifier.verify(stamper.stamp(BODY).headerValue(), BODY);
            assertThat(stamp.kind()).isEqualTo(VerifiedStamp.Kind.API_KEY);
            assertThat(stamp.credentialKey()).isEqualTo(stamper.publicKey());
            assertThat(stamp.apiKeyScheme())
                    .hasValueSatisfying(s -> assertThat(s.wireName()).isEqualTo(curve.scheme()));
            assertThat(stamp.record().message()).isEqualTo(new String(BODY, StandardCharsets.UTF_8));
        }
    }

    @Test
    void acceptsPaddedBase64() {
        try (ApiKeyStamper stamper = ApiKeyStamper.generate(ApiKeyStamper.Curve.P256, new SecureRandom())) {
            String unpadded = stamper.stamp(BODY).headerValue();
            String padded = unpadded + "=".repeat((4 - unpadded.length() % 4) % 4);
            assertThat(verifier.verify(padded, BODY).credentialKey()).isEqualTo(stamper.publicKey());
        }
    }

    @Test
    void aSignatureOverOtherBytesFails() {
        try (ApiKeyStamper stamper = ApiKeyStamper.generate(ApiKeyStamper.Curve.ED25519, new SecureRandom())) {
            String stamp = stamper.stamp(BODY).headerValue();
            byte[] other = "{\"organizationId\":\"p\"}".getBytes(StandardCharsets.UTF_8);
            assertThatThrownBy(() -> verifier.verify(stamp, other))
                    .isInstanceOfSatisfying(
                            ApiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.SIGNATURE_INVALID));
        }
    }

    @Test
    void theKeyCacheStaysBoundedAndCorrectBeyondItsCapacity() {
        for (int i = 0; i < 5; i++) {
            try (ApiKeyStamper stamper = ApiKeyStamper.generate(ApiKeyStamper.Curve.P256, new SecureRandom())) {
                assertThat(verifier.verify(stamper.stamp(BODY).headerValue(), BODY)
                                .credentialKey())
                        .isEqualTo(stamper.publicKey());
            }
        }
    }

    @Test
    void malformedStampsNameTheProblemWithoutEchoingTheHeader() {
        String secretLooking = Base64.getUrlEncoder()
                .encodeToString(
                        "{\"publicKey\":\"deadbeef\",\"scheme\":\"SIGNATURE_SCHEME_TK_API_P256\",\"signature\":\"3006\"}"
                                .getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> verifier.verify(secretLooking, BODY)).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_STAMP);
            assertThat(e.getMessage()).doesNotContain("deadbeef").contains("not a valid");
        });
    }
}
