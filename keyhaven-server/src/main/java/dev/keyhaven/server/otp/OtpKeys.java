package dev.keyhaven.server.otp;

import com.nimbusds.jwt.JWTClaimsSet;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.custody.BundleSigner;
import dev.keyhaven.server.custody.HpkeTargets;
import dev.keyhaven.server.custody.JwtIssuer;
import dev.keyhaven.server.custody.SealPurpose;
import dev.keyhaven.server.custody.SealedSecret;
import dev.keyhaven.server.tx.Tx;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The OTP protocol over custody's handles: each OTP's target key (a fresh P-256 key whose public half the OTP signer
 * vouches for in {@code otpEncryptionTargetBundle}, the private half sealed in custody until the code is verified),
 * the {@code encryptedOtpBundle} a client sends to it, the keyed hash codes are stored as, and the verification
 * tokens (ES256 JWTs issued by Nimbus, signed by the OTP signer: Turnkey's TLS-fetcher key).
 */
public final class OtpKeys {
    private static final HexFormat HEX = HexFormat.of();
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final HpkeTargets targets;
    private final BundleSigner signer;
    private final JwtIssuer tokens;

    public OtpKeys(HpkeTargets targets, BundleSigner otpSigner) {
        this.targets = targets;
        this.signer = otpSigner;
        this.tokens = otpSigner.jwtIssuer(JwtIssuer.Digest.ES256);
    }

    /** The OTP signer's public key (hex, uncompressed): what {@code encryptOtpCodeToBundle} is given to trust. */
    public String signerPublicKey() {
        return signer.publicKeyHex();
    }

    /** A fresh OTP target: the private key sealed for {@code otpId}, and the signed target bundle. */
    public record OtpTarget(SealedSecret sealedKey, String bundle) {}

    public OtpTarget newTarget(Tx tx, String organizationId, String otpId) {
        HpkeTargets.Target target = targets.newTarget(tx, SealPurpose.OTP_TARGET, organizationId, otpId);
        Map<String, String> inner = new LinkedHashMap<>();
        inner.put("targetPublic", target.publicKeyHex());
        inner.put("organizationId", organizationId);
        return new OtpTarget(target.sealedKey(), signer.signedBundle(inner));
    }

    /** What the client encrypted: the code it was sent and its public key (compressed hex). */
    public record OtpAttempt(String code, String publicKey) {
        @Override
        public String toString() {
            return "OtpAttempt[code redacted, " + publicKey + "]";
        }
    }

    /**
     * Opens {@code encryptedOtpBundle} ({@code {"encappedPublic","ciphertext"}}, hex) with the OTP's target key.
     *
     * @throws ApiException 400 naming {@code field} (where the request holds the bundle) when it is malformed, does
     *         not open, or holds no {@code {otp_code, public_key}}
     */
    public OtpAttempt open(
            String organizationId, String otpId, SealedSecret sealedKey, String encryptedOtpBundle, String field) {
        byte[] encappedPublic;
        byte[] ciphertext;
        try {
            JsonNode bundle = JSON.readTree(encryptedOtpBundle);
            encappedPublic = HEX.parseHex(bundle.path("encappedPublic").asString());
            ciphertext = HEX.parseHex(bundle.path("ciphertext").asString());
        } catch (JacksonException | IllegalArgumentException e) {
            throw ApiException.badField(
                    field,
                    "must be the JSON {\"encappedPublic\",\"ciphertext\"} (hex) that encryptOtpCodeToBundle produces");
        }
        byte[] plain = null;
        try {
            plain = targets.open(SealPurpose.OTP_TARGET, organizationId, otpId, sealedKey, encappedPublic, ciphertext);
            JsonNode inner = JSON.readTree(new String(plain, StandardCharsets.UTF_8));
            String code = inner.path("otp_code").asString("");
            String publicKey = inner.path("public_key").asString("");
            if (code.isEmpty() || publicKey.isEmpty()) {
                throw ApiException.badField(field, "must hold {\"otp_code\",\"public_key\"}");
            }
            return new OtpAttempt(code, publicKey);
        } catch (JacksonException | IllegalArgumentException e) {
            throw ApiException.badField(
                    field, "does not open with this OTP's target key (encrypt to its " + "otpEncryptionTargetBundle)");
        } finally {
            if (plain != null) {
                Arrays.fill(plain, (byte) 0);
            }
        }
    }

    /** The stored form of a code: a keyed hash bound to its OTP, so a copy of the table reveals no code. */
    public String codeHash(String otpId, String code) {
        return signer.mac(otpId + ":" + code);
    }

    /** A verification token: an ES256 JWT with {@code claims} (in their order), signed by the OTP signer. */
    public String verificationToken(Map<String, String> claims) {
        JWTClaimsSet.Builder set = new JWTClaimsSet.Builder();
        claims.forEach(set::claim);
        return tokens.issue(set.build());
    }

    /** Whether {@code token} was signed by the OTP signer. */
    public boolean issuedToken(String token) {
        return tokens.issued(token);
    }
}
