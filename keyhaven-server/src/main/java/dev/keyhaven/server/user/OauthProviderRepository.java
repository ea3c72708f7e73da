package dev.keyhaven.server.user;

import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Storage of users' OAuth providers and of the OIDC tokens already used for a login. */
public interface OauthProviderRepository {

    /** Stores a provider; its family is the organization's parent, or the organization itself. */
    void insert(Tx tx, OauthProvider provider);

    Optional<OauthProvider> find(Tx tx, String organizationId, String providerId);

    /** Providers of one user (oldest first), or of the whole organization when {@code userId} is empty. */
    List<OauthProvider> list(Tx tx, String organizationId, Optional<String> userId);

    void delete(Tx tx, String organizationId, String providerId);

    /**
     * The providers with this identity in the family of {@code organizationId}: the organization's top organization
     * (its parent, or itself) and that organization's sub-organizations.
     */
    List<OauthProvider> withIdentity(Tx tx, String organizationId, String issuer, String audience, String subject);

    /** The providers with this identity held by users of {@code organizationId} or its direct sub-organizations. */
    List<OauthProvider> withIdentityUnder(Tx tx, String organizationId, String issuer, String audience, String subject);

    /**
     * Records that the token with this fingerprint was used, until it expires; false when it already was.
     * Expired records are dropped first.
     */
    boolean useToken(Tx tx, String fingerprint, Instant now, Instant expiresAt);
}
