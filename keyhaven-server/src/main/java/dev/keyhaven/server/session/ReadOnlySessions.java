package dev.keyhaven.server.session;

import com.nimbusds.jwt.JWTClaimsSet;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.custody.JwtIssuer;
import dev.keyhaven.server.organization.Organization;
import dev.keyhaven.server.organization.OrganizationRepository;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.user.UserRepository;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Read-only sessions ({@code create_read_only_session}): a session JWT of type {@code SESSION_TYPE_READ_ONLY} signed
 * by the session signer, sent as {@code X-Session}; it authenticates queries (not submissions) of its user's
 * organization and that organization's sub-organizations until it expires (an hour). Nothing is stored: the user
 * must still exist at each request.
 */
public final class ReadOnlySessions {
    public static final String READ_ONLY = "SESSION_TYPE_READ_ONLY";
    public static final long SECONDS = 3600;
    /** The credential type a read-only session's caller carries. */
    public static final String CREDENTIAL_TYPE = "CREDENTIAL_TYPE_READ_ONLY_SESSION";

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final Transactor transactor;
    private final UserRepository users;
    private final OrganizationRepository organizations;
    private final JwtIssuer signer;
    private final Clock clock;

    public ReadOnlySessions(
            Transactor transactor,
            UserRepository users,
            OrganizationRepository organizations,
            JwtIssuer sessionSigner,
            Clock clock) {
        this.transactor = transactor;
        this.users = users;
        this.organizations = organizations;
        this.signer = sessionSigner;
        this.clock = clock;
    }

    /** A new read-only session of {@code userId}, expiring {@link #SECONDS} after {@code now}. */
    public String issue(String organizationId, String userId, Instant now) {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder();
        claims.claim("exp", now.getEpochSecond() + SECONDS);
        claims.claim("public_key", "");
        claims.claim("session_type", READ_ONLY);
        claims.claim("user_id", userId);
        claims.claim("organization_id", organizationId);
        return signer.issue(claims.build());
    }

    /**
     * The caller an {@code X-Session} header authenticates for a query of {@code organizationId}.
     *
     * @throws ApiException 401 for a session that is not valid here, 400 for one of another organization
     */
    public Caller caller(String token, String organizationId) {
        if (!signer.issued(token)) {
            throw new ApiException(ErrorCode.SIGNATURE_INVALID, "X-Session is not a session of this server");
        }
        JsonNode claims;
        try {
            claims = JSON.readTree(Base64.getUrlDecoder().decode(token.split("\\.")[1]));
        } catch (JacksonException | IllegalArgumentException e) {
            throw new ApiException(ErrorCode.SIGNATURE_INVALID, "X-Session is malformed");
        }
        if (!READ_ONLY.equals(claims.path("session_type").asString(""))) {
            throw new ApiException(ErrorCode.SIGNATURE_INVALID, "X-Session is not a read-only session");
        }
        if (clock.instant().getEpochSecond() >= claims.path("exp").asLong(0)) {
            throw new ApiException(ErrorCode.API_KEY_EXPIRED, "the read-only session has expired");
        }
        String sessionOrganization = claims.path("organization_id").asString("");
        String userId = claims.path("user_id").asString("");
        boolean allowed = transactor.read(
                tx -> users.find(tx, sessionOrganization, userId).isPresent()
                        && (sessionOrganization.equals(organizationId)
                                || organizations
                                        .find(tx, organizationId)
                                        .flatMap(Organization::parentId)
                                        .filter(sessionOrganization::equals)
                                        .isPresent()));
        if (!allowed) {
            throw new ApiException(
                    ErrorCode.CREDENTIAL_NOT_FOUND,
                    "the read-only session's user is not found in " + "this organization or its parent");
        }
        return new Caller(
                organizationId,
                sessionOrganization,
                userId,
                new Caller.CredentialRef("read-only-session", CREDENTIAL_TYPE, ""),
                new Caller.StampRecord("", "", "", "SESSION"));
    }
}
