package dev.keyhaven.server.authproxy;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.VerifyingKey;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.otp.OtpService;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A sign-up's {@code clientSignature}: the key a verification token is bound to signs the credentials the new user
 * gets, so a token that leaks on its way cannot sign up someone else's keys. The message is what
 * {@code @turnkey/core} builds ({@code getClientSignatureMessageForSignup}):
 * {@code {"signupV2":{apiKeys, authenticators, oauthProviders, email?, phoneNumber?},"tokenId","type":"USAGE_TYPE_SIGNUP"}}
 * ({@code "signup"} for {@code /v1/signup}), compared with the request as parsed JSON, and signed with ECDSA P-256
 * over SHA-256; the signature is raw {@code r‖s} (what core sends) or DER.
 */
final class SignUpSignature {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HexFormat HEX = HexFormat.of();
    private static final String SCHEME = "CLIENT_SIGNATURE_SCHEME_API_P256";

    private SignUpSignature() {}

    /**
     * Checks {@code body}'s {@code clientSignature} against the token: required when the token is bound to a key
     * (every {@code otp_verify_v2} token), and, when given, valid whatever the token.
     *
     * @throws ApiException 400 naming the part of {@code clientSignature} that is wrong
     */
    static void check(OtpService.TokenClaims claims, Params body, boolean v2) {
        String field = body.pathOf("clientSignature");
        Optional<Params> given = body.optionalObject("clientSignature");
        if (given.isEmpty()) {
            if (claims.publicKey().isEmpty()) {
                return;
            }
            throw ApiException.badField(field, "is required: the verification token is bound to a key");
        }
        Params s = given.get();
        String scheme = s.requiredString("scheme");
        if (!scheme.equals(SCHEME)) {
            throw ApiException.badField(s.pathOf("scheme"), "must be " + SCHEME);
        }
        String signer = compressedP256(s.requiredString("publicKey"))
                .orElseThrow(() -> ApiException.badField(s.pathOf("publicKey"), "is not a P-256 public key"));
        if (!signer.equals(claims.publicKey())) {
            throw ApiException.badField(s.pathOf("publicKey"), "is not the key the verification token was issued to");
        }
        String message = s.requiredString("message");
        if (!expected(claims, body, v2).equals(parse(message))) {
            throw ApiException.badField(
                    s.pathOf("message"),
                    "must be {\"" + usageKey(v2) + "\":{\"apiKeys\",\"authenticators\",\"oauthProviders\","
                            + "\"email\"|\"phoneNumber\"},\"tokenId\":<the token's id>,\"type\":\""
                            + SignUp.SIGNUP_USAGE
                            + "\"} with this request's values");
        }
        if (!verifies(signer, message, s.requiredString("signature"))) {
            throw ApiException.badField(s.pathOf("signature"), "does not verify with the token's key");
        }
    }

    private static String usageKey(boolean v2) {
        return v2 ? "signupV2" : "signup";
    }

    /** The message core builds for this request: its own arrays, and the contact it proves. */
    private static JsonNode expected(OtpService.TokenClaims claims, Params body, boolean v2) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode usage = root.putObject(usageKey(v2));
        for (String array : new String[] {"apiKeys", "authenticators", "oauthProviders"}) {
            JsonNode value = body.node().get(array);
            if (value != null && !value.isNull()) {
                usage.set(array, value);
            }
        }
        body.optionalString("userEmail").ifPresent(email -> usage.put("email", email));
        body.optionalString("userPhoneNumber").ifPresent(phone -> usage.put("phoneNumber", phone));
        root.put("tokenId", claims.id());
        root.put("type", SignUp.SIGNUP_USAGE);
        return root;
    }

    private static JsonNode parse(String message) {
        try {
            return JSON.readTree(message);
        } catch (JacksonException e) {
            return JSON.missingNode();
        }
    }

    private static Optional<String> compressedP256(String hex) {
        try {
            return Optional.of(
                    HEX.formatHex(EcCurve.P256.compress(HEX.parseHex(hex.startsWith("0x") ? hex.substring(2) : hex))));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static boolean verifies(String signer, String message, String signatureHex) {
        try {
            byte[] signature = HEX.parseHex(signatureHex);
            byte[] der = signature.length == 64 ? VerifyingKey.derFromRaw(EcCurve.P256, signature) : signature;
            return VerifyingKey.ecdsaSha256(EcCurve.P256, HEX.parseHex(signer))
                    .verify(message.getBytes(StandardCharsets.UTF_8), der);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
