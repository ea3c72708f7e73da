package dev.keyhaven.server.oidc;

import static dev.keyhaven.server.oidc.TestJwts.ec;
import static dev.keyhaven.server.oidc.TestJwts.rsa;
import static dev.keyhaven.server.oidc.TestJwts.signed;
import static dev.keyhaven.server.testing.ApiErrors.isError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.MutableClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The verifier's checks, each failure a distinct INVALID_OIDC_TOKEN message; keys are in memory. */
class OidcVerifierTest {
    private static final String ISSUER = "https://issuer.test";
    private static final RSAKey RSA = rsa("rsa-1");
    private static final ECKey EC = ec("ec-1");

    private final MutableClock clock = MutableClock.startingNow();
    private final OidcVerifier verifier = new OidcVerifier(
            List.of(
                    new TrustedIssuer(
                            ISSUER,
                            Set.of("app-1", "app-2"),
                            new ImmutableJWKSet<>(new JWKSet(List.of(RSA.toPublicJWK(), EC.toPublicJWK())))),
                    TrustedIssuer.inProcess("https://keyhaven.internal", new JWKSet(EC))),
            clock);

    @Test
    void acceptsRsaAndEcTokensAndReportsTheIdentity() throws Exception {
        VerifiedIdToken rsa = verifier.verify(signed(RSA, JWSAlgorithm.RS256, claims().build()), Optional.of("n-1"));
        assertThat(rsa.issuer()).isEqualTo(ISSUER);
        assertThat(rsa.subject()).isEqualTo("alice");
        assertThat(rsa.audience()).isEqualTo("app-1");
        assertThat(rsa.fingerprint()).hasSize(64).doesNotContain(".");
        VerifiedIdToken ec = verifier.verify(
                signed(
                        EC,
                        JWSAlgorithm.ES256,
                        claims().audience(List.of("other", "app-2")).build()),
                Optional.empty());
        assertThat(ec.audience()).isEqualTo("app-2");
    }

    @Test
    void aBase64WrappedTokenIsTheSameToken() throws Exception {
        String token = signed(RSA, JWSAlgorithm.RS256, claims().build());
        String wrapped = Base64.getEncoder().encodeToString(token.getBytes(StandardCharsets.UTF_8));
        assertThat(verifier.verify(wrapped, Optional.of("n-1")).fingerprint())
                .isEqualTo(verifier.verify(token, Optional.of("n-1")).fingerprint());
    }

    @Test
    void inProcessIssuersAcceptAnyAudience() throws Exception {
        String token = signed(
                EC,
                JWSAlgorithm.ES256,
                claims().issuer("https://keyhaven.internal")
                        .audience("client-42")
                        .build());
        assertThat(verifier.verify(token, Optional.empty()).audience()).isEqualTo("client-42");
    }

    @Test
    void refusesEachBrokenCheckSayingWhat() throws Exception {
        assertInvalid(signed(RSA, JWSAlgorithm.RS256, claims().audience("app-9").build()), "audience (aud)");
        assertInvalid(
                signed(
                        RSA,
                        JWSAlgorithm.RS256,
                        claims().expirationTime(Date.from(clock.instant().minusSeconds(61)))
                                .build()),
                "has expired");
        assertInvalid(
                signed(
                        RSA,
                        JWSAlgorithm.RS256,
                        claims().issueTime(Date.from(clock.instant().plusSeconds(120)))
                                .build()),
                "issued in the future");
        assertInvalid(
                signed(RSA, JWSAlgorithm.RS256, claims().claim("nonce", "other").build()), "nonce does not match");
        assertInvalid(signed(RSA, JWSAlgorithm.RS256, claims().subject(null).build()), "no subject");
        assertInvalid(
                signed(RSA, JWSAlgorithm.RS256, claims().expirationTime(null).build()), "no expiry");
        assertInvalid(
                signed(
                        RSA,
                        JWSAlgorithm.RS256,
                        claims().issuer("https://evil.test").build()),
                "https://evil.test, which is not a trusted OIDC issuer");
        assertInvalid(signed(rsa("rsa-1"), JWSAlgorithm.RS256, claims().build()), "signature does not verify");
        assertInvalid(new PlainJWT(claims().build()).serialize(), "is not signed");
        SignedJWT hmac = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims().build());
        hmac.sign(new MACSigner(new byte[32]));
        assertInvalid(hmac.serialize(), "algorithm HS256, which is not accepted");
        assertInvalid("not-a-token", "neither a compact JWS nor a base64-wrapped one");
        assertInvalid("a.b.c", "is not a JWT");
    }

    @Test
    void theClockSkewIsSixtySeconds() throws Exception {
        String token = signed(
                RSA,
                JWSAlgorithm.RS256,
                claims().expirationTime(Date.from(clock.instant())).build());
        clock.advance(Duration.ofSeconds(59));
        assertThat(verifier.verify(token, Optional.of("n-1")).subject()).isEqualTo("alice");
        clock.advance(Duration.ofSeconds(2));
        assertInvalid(token, "has expired");
    }

    @Test
    void messagesNeverEchoTheToken() throws Exception {
        String token =
                signed(RSA, JWSAlgorithm.RS256, claims().audience("app-9").build());
        assertThatThrownBy(() -> verifier.verify(token, Optional.empty()))
                .isInstanceOf(ApiException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(token.split("\\.")[1]));
    }

    private void assertInvalid(String token, String message) {
        assertThatThrownBy(() -> verifier.verify(token, Optional.of("n-1")))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.INVALID_OIDC_TOKEN, null))
                .hasMessageStartingWith("invalid OIDC token: the token ")
                .hasMessageContaining(message);
    }

    private JWTClaimsSet.Builder claims() {
        Instant now = clock.instant();
        return new JWTClaimsSet.Builder()
                .issuer(ISSUER)
                .subject("alice")
                .audience("app-1")
                .claim("nonce", "n-1")
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plusSeconds(600)));
    }
}
