package dev.keyhaven.server.session;

import com.nimbusds.jwt.JWTClaimsSet;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.custody.JwtIssuer;
import dev.keyhaven.server.tx.Tx;
import dev.keyhaven.server.user.ApiKey;
import dev.keyhaven.server.user.ApiKeyCurve;
import dev.keyhaven.server.user.Credentials;
import dev.keyhaven.server.user.NewApiKey;
import dev.keyhaven.server.user.UserRepository;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * Issues sessions: the session key becomes an expiring API key of the user (so it stamps requests until it expires;
 * the user's key limits and eviction apply), and the session JWT describes it. {@code invalidateExisting} deletes
 * the user's other expiring API keys of the same credential type first: for a session, every expiring
 * {@code CREDENTIAL_TYPE_API_KEY_P256} (Keyhaven has no separate record of which of them were sessions), not the keys
 * of the older sign-ins, which have types of their own ({@link dev.keyhaven.server.user.SignInKeyType}).
 */
public final class Sessions {
    /** Turnkey's default session lifetime. */
    public static final long DEFAULT_SECONDS = 900;
    /** The longest session accepted (a day; Turnkey documents no bound). */
    public static final long MAX_SECONDS = 24 * 60 * 60;

    public static final String READ_WRITE = "SESSION_TYPE_READ_WRITE";

    private final UserRepository users;
    private final Credentials credentials;
    private final JwtIssuer signer;

    public Sessions(UserRepository users, Credentials credentials, JwtIssuer sessionSigner) {
        this.users = users;
        this.credentials = credentials;
        this.signer = sessionSigner;
    }

    /** The session signer's public key (hex, uncompressed), for {@code verifySessionJwtSignature}. */
    public String signerPublicKey() {
        return signer.publicKeyHex();
    }

    /** A session's parameters: the client's P-256 key (hex), its lifetime, and whether older sessions end. */
    public record Request(String publicKey, long expirationSeconds, boolean invalidateExisting) {}

    /** Validates a session lifetime (400 naming {@code field}). */
    public static long lifetime(Optional<Long> seconds, long defaultSeconds, String field) {
        long value = seconds.orElse(defaultSeconds);
        if (value < 1 || value > MAX_SECONDS) {
            throw ApiException.badField(field, "must be between 1 and " + MAX_SECONDS + " seconds");
        }
        return value;
    }

    /** Validates a session public key: hex of a P-256 point (400 naming {@code field}). */
    public static String publicKey(String hex, String field) {
        try {
            return NewApiKey.of("session", hex, ApiKeyCurve.API_KEY_CURVE_P256).publicKey();
        } catch (IllegalArgumentException e) {
            throw ApiException.badField(field, "must be a P-256 public key (hex, compressed or uncompressed)");
        }
    }

    /** Registers the session key for {@code userId} and returns the session JWT. */
    public String open(Tx tx, String organizationId, String userId, Request request, Instant now, Ids ids) {
        String key = publicKey(request.publicKey(), "parameters.publicKey");
        addKey(
                tx,
                organizationId,
                userId,
                key,
                ApiKeyCurve.API_KEY_CURVE_P256.credentialType(),
                "Session key " + now.getEpochSecond(),
                request,
                now,
                ids);
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder();
        claims.claim("exp", now.getEpochSecond() + request.expirationSeconds());
        claims.claim("public_key", key);
        claims.claim("session_type", READ_WRITE);
        claims.claim("user_id", userId);
        claims.claim("organization_id", organizationId);
        return signer.issue(claims.build());
    }

    /**
     * Registers {@code publicKey} (canonical, compressed P-256) as an expiring API key of {@code userId} named
     * {@code name}, of {@code credentialType}, ending the user's other expiring keys of that type first when the
     * request says so; returns its id.
     */
    public String addKey(
            Tx tx,
            String organizationId,
            String userId,
            String publicKey,
            String credentialType,
            String name,
            Request request,
            Instant now,
            Ids ids) {
        if (request.invalidateExisting()) {
            users.lockUser(tx, organizationId, userId);
            for (ApiKey existing : users.apiKeys(tx, organizationId, Optional.of(userId))) {
                if (existing.isExpiring() && existing.credentialType().equals(credentialType)) {
                    users.deleteApiKey(tx, organizationId, existing.id());
                }
            }
        }
        return credentials
                .addApiKeys(
                        tx,
                        organizationId,
                        userId,
                        java.util.List.of(new NewApiKey(
                                name,
                                publicKey,
                                ApiKeyCurve.API_KEY_CURVE_P256,
                                Optional.of(request.expirationSeconds()),
                                credentialType)),
                        now,
                        ids)
                .getFirst();
    }

    /** {@code activity.params} of the login activities: {@code session_profile_id} ('' when none is given). */
    public static dev.keyhaven.server.activity.PolicyFacts loginFacts(Optional<String> sessionProfileId) {
        return dev.keyhaven.server.activity.PolicyFacts.params(
                Map.of("session_profile_id", dev.keyhaven.policy.Value.of(sessionProfileId.orElse(""))));
    }
}
