package dev.keyhaven.server.testing;

import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.Stamper;
import dev.keyhaven.server.testing.Bundles.TargetKey;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code X-Stamp-Attested} as a client sends it: base64url of {@code {publicKey, signature, publicKeyAttestation,
 * scheme}}.
 */
public final class AttestedStamps {
    public static final String OIDC = "STAMP_ATTESTED_SCHEME_P256_OIDC";
    public static final String VERIFICATION_TOKEN = "STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private AttestedStamps() {}

    /** A stamper whose {@code key} signs the body (DER, as {@code X-Stamp}) with the attestation riding along. */
    public static Stamper attested(TargetKey key, String attestation, String scheme) {
        ApiKeyStamper signer = ApiKeyStamper.fromPrivateKey(
                ApiKeyStamper.Curve.P256, HexFormat.of().formatHex(key.privateKey()));
        return body -> {
            JsonNode apiStamp = JSON.readTree(
                    Base64.getUrlDecoder().decode(signer.stamp(body).headerValue()));
            Map<String, String> stamp = new LinkedHashMap<>();
            stamp.put("publicKey", key.compressed());
            stamp.put("signature", apiStamp.path("signature").asString());
            stamp.put("publicKeyAttestation", attestation);
            stamp.put("scheme", scheme);
            return new Stamper.Stamp(
                    "X-Stamp-Attested",
                    Base64.getUrlEncoder().withoutPadding().encodeToString(JSON.writeValueAsBytes(stamp)));
        };
    }
}
