package dev.keyhaven.server.custody;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.bundle.TurnkeyHpke;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.tx.Tx;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The key material of one-time passwords: each OTP's target key (a fresh P-256 key whose public half the OTP signer
 * vouches for in {@code otpEncryptionTargetBundle}, the private half sealed until the code is verified), the keyed
 * hash codes are stored as, and the verification tokens (ES256 JWTs by the OTP signer, Turnkey's TLS-fetcher key).
 */
public final class OtpKeys {
    private static final HexFormat HEX = HexFormat.of();
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final KeySealer sealer;
    private final BundleSigner signer;
    private final SecureRandom random;

    public OtpKeys(KeySealer sealer, BundleSigner otpSigner, SecureRandom random) {
        this.sealer = sealer;
        this.signer = otpSigner;
        this.random = random;
    }

    /** The OTP signer's public key (hex, uncompressed): what {@code encryptOtpCodeToBundle} is given to trust. */
    public String signerPublicKey() {
        return signer.publicKeyHex();
    }

    /** A fresh OTP target: the private key sealed for {@code otpId}, and the signed target bundle. */
    public record OtpTarget(SealedSecret sealedKey, String bundle) {}

    public OtpTarget newTarget(Tx tx, String organizationId, String otpId) {
        try (SecretBytes key = KeyCurve.P256.generatePrivateKey(random)) {
            Map<String, String> inner = new LinkedHashMap<>();
            inner.put("targetPublic", HEX.formatHex(EcCurve.P256.decompress(KeyCurve.P256.publicKey(key))));
            inner.put("organizationId", organizationId);
            return new OtpTarget(
                    sealer.seal(tx, SealPurpose.OTP_TARGET, organizationId, otpId, key), signer.signedBundle(inner));
        }
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
        TurnkeyHpke.Encrypted encrypted;
        try {
            JsonNode bundle = JSON.readTree(encryptedOtpBundle);
            encrypted = new TurnkeyHpke.Encrypted(
                    HEX.parseHex(bundle.path("encappedPublic").asString()),
                    HEX.parseHex(bundle.path("ciphertext").asString()));
        } catch (JacksonException | IllegalArgumentException e) {
            throw ApiException.badField(
                    field,
                    "must be the JSON {\"encappedPublic\",\"ciphertext\"} (hex) that encryptOtpCodeToBundle produces");
        }
        try (SecretBytes key = sealer.open(SealPurpose.OTP_TARGET, organizationId, otpId, sealedKey);
                SecretBytes plain = TurnkeyHpke.open(key, encrypted)) {
            JsonNode inner = plain.apply(b -> JSON.readTree(new String(b, StandardCharsets.UTF_8)));
            String code = inner.path("otp_code").asString("");
            String publicKey = inner.path("public_key").asString("");
            if (code.isEmpty() || publicKey.isEmpty()) {
                throw ApiException.badField(field, "must hold {\"otp_code\",\"public_key\"}");
            }
            return new OtpAttempt(code, publicKey);
        } catch (JacksonException | IllegalArgumentException e) {
            throw ApiException.badField(
                    field, "does not open with this OTP's target key (encrypt to its " + "otpEncryptionTargetBundle)");
        }
    }

    /** The stored form of a code: a keyed hash bound to its OTP, so a copy of the table reveals no code. */
    public String codeHash(String otpId, String code) {
        return signer.mac(otpId + ":" + code);
    }

    /** A verification token: an ES256 JWT with {@code claims}, signed by the OTP signer. */
    public String verificationToken(Map<String, String> claims) {
        return signer.jwt(claims, false);
    }

    /** Whether {@code token} was signed by the OTP signer. */
    public boolean issuedToken(String token) {
        return signer.signed(token, false);
    }
}
