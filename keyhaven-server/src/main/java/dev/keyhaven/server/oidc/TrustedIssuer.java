package dev.keyhaven.server.oidc;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import java.io.IOException;
import java.net.MalformedURLException;
import java.text.ParseException;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * An issuer whose ID tokens are accepted: its {@code iss}, the audiences its tokens may name (empty: any, for
 * issuers inside this process, which mint tokens for their own clients), and where its public keys come from.
 */
public record TrustedIssuer(String issuer, Set<String> audiences, JWKSource<SecurityContext> keys) {
    /** How long fetched keys are used before they are fetched again. */
    public static final Duration CACHE_LIFETIME = Duration.ofMinutes(5);
    /** The least time between two fetches prompted by unknown key ids (Nimbus allows two per interval). */
    public static final Duration REFETCH_INTERVAL = Duration.ofSeconds(30);

    private static final int TIMEOUT_MILLIS = 5_000;
    private static final int SIZE_LIMIT = 256 * 1024;

    public TrustedIssuer {
        audiences = Set.copyOf(audiences);
    }

    /**
     * The issuer of a file entry: a remote JWKS is fetched on first use, cached, and fetched again when a token names
     * a key id it does not hold (key rotation), at most twice per {@link #REFETCH_INTERVAL}; a JWKS file is read now.
     *
     * @throws IllegalArgumentException when the JWKS file cannot be read or is not a JWK set
     */
    public static TrustedIssuer of(IssuerConfig config) {
        if (config.jwksFile().isPresent()) {
            try {
                return new TrustedIssuer(
                        config.issuer(),
                        Set.copyOf(config.audiences()),
                        new ImmutableJWKSet<>(
                                JWKSet.load(config.jwksFile().get().toFile())));
            } catch (IOException | ParseException e) {
                throw new IllegalArgumentException(
                        "OIDC issuer " + config.issuer() + ": jwksFile "
                                + config.jwksFile().get() + " is not a readable JWK set",
                        e);
            }
        }
        try {
            JWKSource<SecurityContext> remote = JWKSourceBuilder.<SecurityContext>create(
                            config.jwksUri().orElseThrow().toURL(),
                            new DefaultResourceRetriever(TIMEOUT_MILLIS, TIMEOUT_MILLIS, SIZE_LIMIT))
                    .cache(CACHE_LIFETIME.toMillis(), TIMEOUT_MILLIS)
                    .refreshAheadCache(false)
                    .rateLimited(REFETCH_INTERVAL.toMillis())
                    .retrying(false)
                    .build();
            return new TrustedIssuer(config.issuer(), Set.copyOf(config.audiences()), remote);
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("OIDC issuer " + config.issuer() + ": jwksUri is not a URL", e);
        }
    }

    /** An issuer in this process, with its public keys in memory; tokens may name any audience. */
    public static TrustedIssuer inProcess(String issuer, JWKSet publicKeys) {
        return new TrustedIssuer(issuer, Set.of(), new ImmutableJWKSet<>(publicKeys.toPublicJWKSet()));
    }

    /** The issuers of the file's entries. */
    public static List<TrustedIssuer> of(List<IssuerConfig> configs) {
        return configs.stream().map(TrustedIssuer::of).toList();
    }

    /** Whether a token of this issuer may name {@code audience}. */
    public boolean accepts(String audience) {
        return audiences.isEmpty() || audiences.contains(audience);
    }
}
