package dev.keyhaven.server.auth;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.oidc.OidcIdentity;
import dev.keyhaven.server.oidc.OidcVerifier;
import dev.keyhaven.server.oidc.SessionNonce;
import dev.keyhaven.server.oidc.VerifiedIdToken;
import dev.keyhaven.server.otp.OtpService;
import dev.keyhaven.server.otp.OtpType;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Locale;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Verifies {@code X-Stamp-Attested}: base64url of (or plain) JSON {@code {publicKey, signature,
 * publicKeyAttestation, scheme}}. The P-256 key signs the body as an {@code X-Stamp} key does; the attestation proves
 * who holds the key: an OIDC token whose {@code nonce} is {@link SessionNonce#of} the key
 * ({@code STAMP_ATTESTED_SCHEME_P256_OIDC}; the caller is the user with that OAuth provider), or an OTP verification
 * token issued to the key ({@code STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN}; the caller is the user with the
 * proven contact). Attested stamps are not consumed: the attestation signs requests until it expires. Every failure
 * is a 401.
 */
public final class AttestedStampVerifier {
    public static final String OIDC_SCHEME = "STAMP_ATTESTED_SCHEME_P256_OIDC";
    public static final String VERIFICATION_TOKEN_SCHEME = "STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN";

    private final ApiKeyStampVerifier signatures;
    private final OidcVerifier oidc;
    private final OtpService otps;
    private final ObjectMapper json;
    private final Clock clock;

    public AttestedStampVerifier(
            ApiKeyStampVerifier signatures, OidcVerifier oidc, OtpService otps, ObjectMapper json, Clock clock) {
        this.signatures = signatures;
        this.oidc = oidc;
        this.otps = otps;
        this.json = json;
        this.clock = clock;
    }

    public VerifiedStamp verify(String headerValue, byte[] body) {
        JsonNode stamp = StampJson.decode(json, headerValue, true, AttestedStampVerifier::malformed);
        String publicKey = StampJson.member(stamp, "publicKey", AttestedStampVerifier::malformed);
        String signature = StampJson.member(stamp, "signature", AttestedStampVerifier::malformed);
        String attestation = StampJson.member(stamp, "publicKeyAttestation", AttestedStampVerifier::malformed);
        String scheme = StampJson.member(stamp, "scheme", AttestedStampVerifier::malformed);
        if (!scheme.equals(OIDC_SCHEME) && !scheme.equals(VERIFICATION_TOKEN_SCHEME)) {
            throw malformed("unsupported scheme (" + OIDC_SCHEME + " or " + VERIFICATION_TOKEN_SCHEME + ")");
        }
        String key = signatures
                .signed(StampScheme.SIGNATURE_SCHEME_TK_API_P256, publicKey, signature, body)
                .credentialKey();
        Caller.StampRecord record = new Caller.StampRecord(
                new String(body, StandardCharsets.UTF_8), publicKey, signature.toLowerCase(Locale.ROOT), scheme);
        if (scheme.equals(OIDC_SCHEME)) {
            VerifiedIdToken token;
            try {
                token = oidc.verify(attestation, Optional.of(SessionNonce.of(publicKey)));
            } catch (ApiException e) {
                throw unattested(e.getMessage());
            }
            return VerifiedStamp.attested(
                    VerifiedStamp.Kind.OIDC,
                    OidcIdentity.key(token.issuer(), token.audience(), token.subject()),
                    record,
                    Optional.empty());
        }
        OtpService.TokenClaims claims;
        try {
            claims = otps.unexpiredClaims(attestation, clock.instant());
        } catch (ApiException e) {
            throw unattested("the verification token "
                    + e.getMessage().replaceFirst("^bad request body: parameters.verificationToken ", ""));
        }
        if (!claims.publicKey().equals(key)) {
            throw unattested("the verification token was not issued to the stamp's public key");
        }
        boolean email = claims.type() == OtpType.OTP_TYPE_EMAIL;
        return VerifiedStamp.attested(
                email ? VerifiedStamp.Kind.OTP_EMAIL : VerifiedStamp.Kind.OTP_SMS,
                email ? claims.contact().toLowerCase(Locale.ROOT) : claims.contact(),
                record,
                Optional.of(claims.organizationId()));
    }

    private static ApiException malformed(String why) {
        return new ApiException(
                ErrorCode.MALFORMED_STAMP,
                "malformed activity stamp: could not extract attested " + "stamp (" + why + ")");
    }

    private static ApiException unattested(String why) {
        return new ApiException(ErrorCode.SIGNATURE_INVALID, "could not verify attested stamp: " + why);
    }
}
