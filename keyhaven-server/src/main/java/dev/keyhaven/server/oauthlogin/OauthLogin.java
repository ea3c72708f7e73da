package dev.keyhaven.server.oauthlogin;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.oidc.OidcVerifier;
import dev.keyhaven.server.oidc.SessionNonce;
import dev.keyhaven.server.oidc.VerifiedIdToken;
import dev.keyhaven.server.session.Sessions;
import dev.keyhaven.server.tx.Tx;
import dev.keyhaven.server.user.OauthProvider;
import dev.keyhaven.server.user.OauthProviderRepository;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The OIDC login flow, shared by the activity and the auth proxy. The token is verified before any transaction (its
 * issuer's keys may have to be fetched), with {@code nonce} = {@link SessionNonce#of} the session key as sent; the
 * rest runs in the caller's write transaction. A token opens one session only: its fingerprint is remembered in the
 * database until it expires, so a replay fails on every server sharing the store.
 */
public final class OauthLogin {
    private final OidcVerifier verifier;
    private final OauthProviderRepository providers;
    private final Sessions sessions;

    public OauthLogin(OidcVerifier verifier, OauthProviderRepository providers, Sessions sessions) {
        this.verifier = verifier;
        this.providers = providers;
        this.sessions = sessions;
    }

    /** A login's parameters ({@code v1OauthLoginIntent}, the proxy's {@code v1OAuthLoginRequest}) with its token. */
    public record Request(VerifiedIdToken token, Sessions.Request session, Optional<String> sessionProfileId) {}

    /** Reads and validates a login and verifies its token; the key's canonical form opens the session. */
    public Request read(Params p, long defaultSessionSeconds) {
        String token = p.requiredString("oidcToken");
        String publicKeyAsSent = p.requiredString("publicKey");
        Sessions.publicKey(publicKeyAsSent, p.pathOf("publicKey"));
        long lifetime = Sessions.lifetime(
                p.optionalUint64("expirationSeconds"), defaultSessionSeconds, p.pathOf("expirationSeconds"));
        VerifiedIdToken verified = verifier.verify(token, Optional.of(SessionNonce.of(publicKeyAsSent)));
        return new Request(
                verified,
                new Sessions.Request(publicKeyAsSent, lifetime, p.optionalBoolean("invalidateExisting", false)),
                p.optionalString("sessionProfileId").filter(id -> !id.isEmpty()));
    }

    /**
     * Verifies an ID token that opens no session (an account lookup): signature, issuer, audience and expiry, but no
     * nonce, since no session key is bound to it.
     */
    public VerifiedIdToken identify(String token) {
        return verifier.verify(token, Optional.empty());
    }

    /** The providers with this identity held by users of {@code organizationId} or its direct sub-organizations. */
    public List<OauthProvider> owners(Tx tx, String organizationId, String issuer, String audience, String subject) {
        return providers.withIdentityUnder(tx, organizationId, issuer, audience, subject);
    }

    /** The providers with the token's identity held by users of {@code organizationId} or its sub-organizations. */
    public List<OauthProvider> owners(Tx tx, String organizationId, VerifiedIdToken token) {
        return providers.withIdentityUnder(tx, organizationId, token.issuer(), token.audience(), token.subject());
    }

    /** Uses the token up and opens a session for {@code userId} of {@code organizationId}; returns the session JWT. */
    public String login(Tx tx, String organizationId, String userId, Request request, Instant now, Ids ids) {
        spend(tx, request.token(), now);
        return sessions.open(tx, organizationId, userId, request.session(), now, ids);
    }

    /**
     * Verifies {@code token} for the older {@code oauth} activity, whose nonce binds the credential bundle's target
     * key ({@link SessionNonce#of} {@code targetPublicKey} as sent) instead of a session key.
     */
    public VerifiedIdToken verifyForTarget(String token, String targetPublicKeyAsSent) {
        return verifier.verify(token, Optional.of(SessionNonce.of(targetPublicKeyAsSent)));
    }

    /** Uses {@code token} up, so that it signs in once only, on every server sharing the store. */
    public void spend(Tx tx, VerifiedIdToken token, Instant now) {
        // Kept past exp by the verifier's clock skew, for as long as the token could still be accepted.
        Instant forgetAfter = token.expiresAt().plus(OidcVerifier.CLOCK_SKEW);
        if (!providers.useToken(tx, token.fingerprint(), now, forgetAfter)) {
            throw new ApiException(
                    ErrorCode.INVALID_OIDC_TOKEN, "invalid OIDC token: oidc token has already been " + "used");
        }
    }
}
