package dev.keyhaven.server.app;

import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.api.JsonMappers;
import dev.keyhaven.server.api.TimeOrderedIds;
import dev.keyhaven.server.oauth2.Oauth2TokenIssuer;
import dev.keyhaven.server.oidc.OidcVerifier;
import dev.keyhaven.server.oidc.TrustedIssuer;
import dev.keyhaven.server.store.Database;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.webauthn.AllowedOrigins;
import dev.keyhaven.server.webauthn.PasskeyRegistrar;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.ObjectMapper;

/**
 * What every feature builds on: the configuration, the injected clock and the ids and randomness derived from it,
 * the JSON mapper, the database's transactor and repositories, Keyhaven's own keys, how messages leave, and the
 * verifiers of passkey attestations and OIDC tokens.
 */
final class Foundation {
    private static final Logger LOG = LoggerFactory.getLogger(Keyhaven.class);

    final KeyhavenConfig config;
    final Clock clock;
    final SecureRandom random = new SecureRandom();
    final Ids ids;
    final ObjectMapper json = JsonMappers.strict();
    final Transactor transactor;
    final Repositories repositories;
    final ServerKeys keys;
    /** Mints the OIDC tokens {@code oauth2_authenticate} hands out. */
    final Oauth2TokenIssuer oauth2Tokens;

    final OidcVerifier oidc;
    final Messaging messaging;
    final AllowedOrigins webAuthnOrigins;
    final PasskeyRegistrar passkeys;

    Foundation(KeyhavenConfig config, Clock clock, Database database) {
        this.config = config;
        this.clock = clock;
        this.ids = new TimeOrderedIds(clock, random);
        this.transactor = database.transactor();
        this.repositories = new Repositories(json);
        this.keys = ServerKeys.open(config, transactor, repositories.custody, repositories.dataKeys, random, clock);
        this.oauth2Tokens = new Oauth2TokenIssuer(keys.oidcTokenSigner, config.oauth2Providers(), clock);
        this.oidc = oidcVerifier(config, oauth2Tokens, clock);
        LOG.info("trusted OIDC issuers: {}", oidc.issuers().isEmpty() ? "none" : oidc.issuers());
        this.messaging = Messaging.of(config, clock);
        this.webAuthnOrigins = AllowedOrigins.of(config.webAuthnOrigins());
        this.passkeys = new PasskeyRegistrar(webAuthnOrigins);
    }

    /** The configured issuers, and Keyhaven itself for the tokens {@code oauth2_authenticate} mints (any audience). */
    private static OidcVerifier oidcVerifier(KeyhavenConfig config, Oauth2TokenIssuer oauth2Tokens, Clock clock) {
        List<TrustedIssuer> trustedIssuers = new ArrayList<>(TrustedIssuer.of(config.oidcIssuers()));
        for (String issuer : oauth2Tokens.issuers()) {
            if (trustedIssuers.stream()
                    .anyMatch(configured -> configured.issuer().equals(issuer))) {
                throw new IllegalArgumentException("OIDC issuer " + issuer + " is in --oidc-issuers, but Keyhaven "
                        + "mints that issuer's tokens for oauth2_authenticate; give the provider another issuer in "
                        + "--oauth2-providers");
            }
            trustedIssuers.add(TrustedIssuer.inProcess(issuer, oauth2Tokens.publicJwks()));
        }
        return new OidcVerifier(trustedIssuers, clock);
    }
}
