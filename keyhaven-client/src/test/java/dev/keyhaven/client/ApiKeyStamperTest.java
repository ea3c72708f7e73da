package dev.keyhaven.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.VerifyingKey;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The X-Stamp the Java client produces, checked the way the server (and Turnkey) reads it. */
class ApiKeyStamperTest {
    private static final byte[] BODY = "{\"organizationId\":\"o\"}".getBytes(StandardCharsets.UTF_8);

    @ParameterizedTest
    @EnumSource(ApiKeyStamper.Curve.class)
    void stampIsUnpaddedBase64UrlJsonWhoseSignatureCoversTheBody(ApiKeyStamper.Curve curve) {
        try (ApiKeyStamper stamper = ApiKeyStamper.generate(curve, new SecureRandom())) {
            Stamper.Stamp stamp = stamper.stamp(BODY);
            assertThat(stamp.headerName()).isEqualTo("X-Stamp");
            assertThat(stamp.headerValue()).doesNotContain("=", "+", "/");
            JsonNode json =
                    JsonMapper.builder().build().readTree(Base64.getUrlDecoder().decode(stamp.headerValue()));
            assertThat(json.propertyNames()).containsExactlyInAnyOrder("publicKey", "scheme", "signature");
            assertThat(json.path("scheme").asString()).isEqualTo(curve.scheme());
            assertThat(json.path("publicKey").asString()).isEqualTo(stamper.publicKey());
            byte[] publicKey = HexFormat.of().parseHex(stamper.publicKey());
            VerifyingKey key = switch (curve) {
                case P256 -> VerifyingKey.ecdsaSha256(EcCurve.P256, publicKey);
                case SECP256K1 -> VerifyingKey.ecdsaSha256(EcCurve.SECP256K1, publicKey);
                case ED25519 -> VerifyingKey.ed25519(publicKey);
            };
            byte[] signature = HexFormat.of().parseHex(json.path("signature").asString());
            assertThat(key.verify(BODY, signature)).isTrue();
            assertThat(key.verify("{}".getBytes(StandardCharsets.UTF_8), signature))
                    .isFalse();
        }
    }

    @Test
    void ecdsaKeysAreCompressedAndEd25519KeysRaw() {
        try (ApiKeyStamper p256 = ApiKeyStamper.generate(ApiKeyStamper.Curve.P256, new SecureRandom());
                ApiKeyStamper ed = ApiKeyStamper.generate(ApiKeyStamper.Curve.ED25519, new SecureRandom())) {
            assertThat(p256.publicKey()).hasSize(66).matches("0[23][0-9a-f]{64}");
            assertThat(ed.publicKey()).hasSize(64).matches("[0-9a-f]{64}");
            assertThat(p256.curve().curveType()).isEqualTo("API_KEY_CURVE_P256");
        }
    }

    @Test
    void aStamperFromAKnownPrivateKeyHasItsPublicKeyAndNeverPrintsThePrivateOne() {
        String privateKey = "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721";
        try (ApiKeyStamper stamper = ApiKeyStamper.fromPrivateKey(ApiKeyStamper.Curve.P256, privateKey)) {
            assertThat(stamper.publicKey())
                    .isEqualTo("0360fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6");
            assertThat(stamper.toString()).doesNotContain(privateKey);
        }
    }
}
