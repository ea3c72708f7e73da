package dev.keyhaven.server.oidc;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Verifies OIDC ID tokens against the trusted issuers. The issuer is chosen by the token's (still unverified)
 * {@code iss} before anything is fetched, so a token naming an untrusted issuer causes no network access; then Nimbus
 * checks the signature with that issuer's keys (RS*, PS* and ES* only: {@code none} and HMAC are refused, and EdDSA
 * too, which Nimbus verifies only with Google Tink, not shipped here), and this class checks {@code aud} (one of the
 * issuer's audiences), {@code exp} and {@code iat} (with {@link #CLOCK_SKEW}) against the server's clock, and
 * {@code nonce} when the caller expects one.
 *
 * <p>A token is accepted as the compact JWS the OIDC provider issued (what the SDKs send), and also wrapped once more
 * in base64 (the API's field descriptions say "Base64 encoded OIDC token"); both forms name the same token.
 *
 * <p>Every failure is {@link ErrorCode#INVALID_OIDC_TOKEN} with a message saying what failed; the token is never
 * echoed.
 */
public final class OidcVerifier {
    /** Tolerated difference between the issuer's clock and ours. */
    public static final Duration CLOCK_SKEW = Duration.ofSeconds(60);

    static final Set<JWSAlgorithm> ACCEPTED = Set.of(
            JWSAlgorithm.RS256,
            JWSAlgorithm.RS384,
            JWSAlgorithm.RS512,
            JWSAlgorithm.PS256,
            JWSAlgorithm.PS384,
            JWSAlgorithm.PS512,
            JWSAlgorithm.ES256,
            JWSAlgorithm.ES384,
            JWSAlgorithm.ES512);

    private final Map<String, Checked> issuers = new LinkedHashMap<>();
    private final Clock clock;

    /** An issuer with the processor that checks signatures with its keys. */
    private record Checked(TrustedIssuer issuer, DefaultJWTProcessor<SecurityContext> processor) {}

    /**
     * @param trusted the configured issuers plus any in-process ones; an issuer may appear once
     */
    public OidcVerifier(List<TrustedIssuer> trusted, Clock clock) {
        this.clock = clock;
        for (TrustedIssuer issuer : trusted) {
            DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
            processor.setJWSKeySelector(new JWSVerificationKeySelector<>(ACCEPTED, issuer.keys()));
            // The claims are checked below against the server's clock, with messages saying what failed.
            processor.setJWTClaimsSetVerifier((claims, context) -> {});
            if (issuers.put(issuer.issuer(), new Checked(issuer, processor)) != null) {
                throw new IllegalArgumentException("OIDC issuer " + issuer.issuer() + " is trusted twice");
            }
        }
    }

    /** The issuers trusted, for the start-up announcement. */
    public List<String> issuers() {
        return List.copyOf(issuers.keySet());
    }

    /**
     * Verifies {@code token}; {@code nonce}, when present, must equal the token's {@code nonce} claim.
     *
     * @throws ApiException {@link ErrorCode#INVALID_OIDC_TOKEN} saying what failed
     */
    public VerifiedIdToken verify(String token, Optional<String> nonce) {
        String compact = compact(token);
        JWT parsed;
        try {
            parsed = JWTParser.parse(compact);
        } catch (ParseException e) {
            throw invalid("is not a JWT");
        }
        if (!(parsed instanceof SignedJWT signed)) {
            throw invalid("is not signed (alg none and encrypted tokens are refused)");
        }
        JWSAlgorithm algorithm = signed.getHeader().getAlgorithm();
        if (!ACCEPTED.contains(algorithm)) {
            throw invalid(
                    "uses algorithm " + algorithm.getName() + ", which is not accepted (RS*, PS* and ES* " + "only)");
        }
        String iss;
        try {
            iss = signed.getJWTClaimsSet().getIssuer();
        } catch (ParseException e) {
            throw invalid("has malformed claims");
        }
        if (iss == null || iss.isBlank()) {
            throw invalid("has no issuer (iss)");
        }
        Checked issuer = issuers.get(iss);
        if (issuer == null) {
            throw invalid("was issued by " + iss + ", which is not a trusted OIDC issuer of this server");
        }
        JWTClaimsSet claims;
        try {
            claims = issuer.processor().process(signed, null);
        } catch (RateLimitReachedException e) {
            throw invalid("names a key issuer " + iss + " did not publish when its keys were last fetched (they are "
                    + "fetched again at most twice per " + TrustedIssuer.REFETCH_INTERVAL.toSeconds() + " s)");
        } catch (KeySourceException e) {
            throw invalid("could not be checked: the keys of issuer " + iss + " could not be fetched");
        } catch (BadJOSEException | JOSEException e) {
            throw invalid("signature does not verify with any key of issuer " + iss);
        }
        return checked(issuer.issuer(), claims, nonce, compact);
    }

    private VerifiedIdToken checked(TrustedIssuer issuer, JWTClaimsSet claims, Optional<String> nonce, String compact) {
        String audience = Optional.ofNullable(claims.getAudience()).orElse(List.of()).stream()
                .filter(issuer::accepts)
                .findFirst()
                .orElseThrow(() -> invalid(
                        "audience (aud) is not one of the audiences issuer " + issuer.issuer() + " is trusted for"));
        Instant now = clock.instant();
        Date exp = claims.getExpirationTime();
        if (exp == null) {
            throw invalid("has no expiry (exp)");
        }
        if (!now.minus(CLOCK_SKEW).isBefore(exp.toInstant())) {
            throw invalid("has expired");
        }
        Date iat = claims.getIssueTime();
        if (iat != null && iat.toInstant().isAfter(now.plus(CLOCK_SKEW))) {
            throw invalid("was issued in the future (iat)");
        }
        String subject = claims.getSubject();
        if (subject == null || subject.isBlank()) {
            throw invalid("has no subject (sub)");
        }
        if (nonce.isPresent()) {
            Object claimed = claims.getClaim("nonce");
            if (!(claimed instanceof String value) || !value.equals(nonce.get())) {
                throw invalid("nonce does not match: it must be the lowercase hex SHA-256 of the session public key");
            }
        }
        Object email = claims.getClaim("email");
        Object emailVerified = claims.getClaim("email_verified");
        // Google sends email_verified as a boolean, some issuers as the string "true".
        boolean verified = Boolean.TRUE.equals(emailVerified) || "true".equals(emailVerified);
        return new VerifiedIdToken(
                issuer.issuer(),
                subject,
                audience,
                exp.toInstant(),
                SessionNonce.sha256Hex(compact),
                email instanceof String address && verified && !address.isBlank()
                        ? Optional.of(address)
                        : Optional.empty());
    }

    /** The compact JWS, unwrapping one extra layer of base64 when the token has no dots. */
    private static String compact(String token) {
        String trimmed = token.strip();
        if (trimmed.isEmpty()) {
            throw invalid("is empty");
        }
        if (trimmed.indexOf('.') >= 0) {
            return trimmed;
        }
        try {
            String decoded = new String(
                            Base64.getDecoder().decode(trimmed.replace('-', '+').replace('_', '/')),
                            StandardCharsets.UTF_8)
                    .strip();
            if (decoded.chars().filter(c -> c == '.').count() == 2) {
                return decoded;
            }
        } catch (IllegalArgumentException e) {
            // falls through to the refusal below
        }
        throw invalid("is neither a compact JWS nor a base64-wrapped one");
    }

    private static ApiException invalid(String problem) {
        return new ApiException(ErrorCode.INVALID_OIDC_TOKEN, "invalid OIDC token: the token " + problem);
    }
}
