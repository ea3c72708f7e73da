package dev.keyhaven.server.oauth2;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jwt.JWTClaimsSet;
import dev.keyhaven.server.custody.OidcTokenSigner;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Mints the OIDC tokens {@code oauth2_authenticate} returns: Keyhaven vouches that the provider's user {@code sub}
 * signed in through the organization's client {@code aud}. ES256 by the {@link OidcTokenSigner}; {@code iss} is the
 * provider's issuer ({@link Oauth2Providers}); valid for {@value #LIFETIME_MINUTES} minutes. Keyhaven's OIDC
 * verification trusts exactly {@link #issuers()} with {@link #publicJwks()}, so the token works with
 * {@code oauth_login}.
 */
public final class Oauth2TokenIssuer {
    static final long LIFETIME_MINUTES = 10;
    static final String ENCRYPTED_BEARER_TOKEN = "encrypted_bearer_token";

    private final OidcTokenSigner signer;
    private final Oauth2Providers providers;
    private final Clock clock;

    public Oauth2TokenIssuer(OidcTokenSigner signer, Oauth2Providers providers, Clock clock) {
        this.signer = signer;
        this.providers = providers;
        this.clock = clock;
    }

    /** The issuers of minted tokens, one per provider. */
    public Set<String> issuers() {
        Set<String> issuers = new TreeSet<>();
        providers.endpoints().values().forEach(e -> issuers.add(e.issuer()));
        return Set.copyOf(issuers);
    }

    /** The public key that verifies minted tokens (one ES256 key, with its {@code kid}). */
    public JWKSet publicJwks() {
        return new JWKSet(signer.publicJwk());
    }

    /** A token for {@code subject} of {@code provider}, audience {@code clientId}, bound to {@code nonce}. */
    String mint(
            Oauth2Provider provider,
            String clientId,
            String subject,
            String nonce,
            Optional<String> encryptedBearerToken) {
        Instant now = clock.instant();
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .issuer(providers.of(provider).issuer())
                .audience(clientId)
                .subject(subject)
                .claim("nonce", nonce)
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(Duration.ofMinutes(LIFETIME_MINUTES))));
        encryptedBearerToken.ifPresent(token -> claims.claim(ENCRYPTED_BEARER_TOKEN, token));
        return signer.sign(claims.build());
    }
}
