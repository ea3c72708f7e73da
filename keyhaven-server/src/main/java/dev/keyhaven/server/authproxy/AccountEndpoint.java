package dev.keyhaven.server.authproxy;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.api.WireEnum;
import dev.keyhaven.server.oauthlogin.OauthLogin;
import dev.keyhaven.server.oidc.VerifiedIdToken;
import dev.keyhaven.server.otp.OtpRepository;
import dev.keyhaven.server.otp.OtpService;
import dev.keyhaven.server.otp.OtpType;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.user.OauthProvider;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code /v1/account} ({@code {filterType, filterValue, verificationToken?, oidcToken?}} → {@code {organizationId}},
 * or {@code {}} when no account matches): which account (the configuration's organization or one of its
 * sub-organizations) a client should sign in to, before it signs in or signs up. The first match is answered.
 *
 * <p>A lookup by contact ({@code EMAIL}, {@code PHONE_NUMBER}) must prove the contact, always (an unauthenticated
 * endpoint that said whether an address has an account would let anyone probe for addresses): a
 * {@code verificationToken} this server issued through this configuration for that very contact, or, for an email,
 * an {@code oidcToken} of a trusted issuer holding it as a verified email. The token is not used up: the login that
 * follows uses it. {@code OIDC_TOKEN} (the raw JWT, verified but for its nonce) and {@code OIDC_CLAIMS}
 * ({@code {"iss","sub","aud"}}) find an OAuth provider; {@code PUBLIC_KEY} an API key (hex, compressed);
 * {@code CREDENTIAL_ID} a passkey. {@code NAME} and {@code USERNAME} are refused: names are often contacts (core names
 * a user after their email), and looking them up without proof would leak what {@code EMAIL} guards.
 */
final class AccountEndpoint implements AuthProxyEndpoint {
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    /** {@code filterType}'s values, as the real service's {@code v1GetAccountRequest} spells them. */
    enum FilterType implements WireEnum {
        EMAIL,
        PHONE_NUMBER,
        OIDC_TOKEN,
        OIDC_CLAIMS,
        PUBLIC_KEY,
        CREDENTIAL_ID,
        NAME,
        USERNAME;

        @Override
        public String wireName() {
            return name();
        }
    }

    private final OtpService otps;
    private final OauthLogin oauthLogins;
    private final CredentialOwners credentials;
    private final Transactor transactor;
    private final Clock clock;

    AccountEndpoint(
            OtpService otps, OauthLogin oauthLogins, CredentialOwners credentials, Transactor transactor, Clock clock) {
        this.otps = otps;
        this.oauthLogins = oauthLogins;
        this.credentials = credentials;
        this.transactor = transactor;
        this.clock = clock;
    }

    @Override
    public Object answer(AuthProxyRequest request) {
        Params body = request.body();
        FilterType type = body.requiredEnum("filterType", FilterType.class);
        String value = body.requiredString("filterValue");
        String organizationId = request.config().organizationId();
        Optional<String> found = switch (type) {
            case EMAIL -> byContact(body, organizationId, OtpType.OTP_TYPE_EMAIL, value);
            case PHONE_NUMBER -> byContact(body, organizationId, OtpType.OTP_TYPE_SMS, value);
            case OIDC_TOKEN -> {
                VerifiedIdToken token = identify(value, body.pathOf("filterValue"));
                yield byIdentity(organizationId, token.issuer(), token.audience(), token.subject());
            }
            case OIDC_CLAIMS -> byClaims(body, organizationId, value);
            case PUBLIC_KEY -> byCredential(organizationId, CredentialOwners.Kind.API_KEY, publicKey(body, value));
            case CREDENTIAL_ID ->
                byCredential(organizationId, CredentialOwners.Kind.PASSKEY, credentialId(body, value));
            case NAME, USERNAME ->
                throw ApiException.badField(
                        body.pathOf("filterType"),
                        "is " + type.wireName() + ", which Keyhaven does not look up: names are often "
                                + "contacts; look up EMAIL or PHONE_NUMBER with a verification token");
        };
        return found.map(id -> Map.of("organizationId", id)).orElseGet(Map::of);
    }

    private Optional<String> byContact(Params body, String organizationId, OtpType type, String value) {
        String contact = OtpService.contact(type, value, body.pathOf("filterValue"));
        Optional<String> verificationToken =
                body.optionalString("verificationToken").filter(s -> !s.isBlank());
        Optional<String> oidcToken = body.optionalString("oidcToken").filter(s -> !s.isBlank());
        if (verificationToken.isPresent()) {
            String field = body.pathOf("verificationToken");
            OtpService.TokenClaims claims = otps.unexpiredClaims(verificationToken.get(), field, clock.instant());
            if (!claims.organizationId().equals(organizationId)) {
                throw ApiException.badField(field, "was not issued through this auth proxy config");
            }
            if (claims.type() != type || !claims.contact().equalsIgnoreCase(contact)) {
                throw ApiException.badField(field, "proves another contact than filterValue");
            }
        } else if (oidcToken.isPresent()) {
            String field = body.pathOf("oidcToken");
            if (type != OtpType.OTP_TYPE_EMAIL) {
                throw ApiException.badField(
                        field, "proves an email address only; a PHONE_NUMBER lookup needs a verificationToken");
            }
            VerifiedIdToken token = identify(oidcToken.get(), field);
            if (!token.verifiedEmail().map(contact::equalsIgnoreCase).orElse(false)) {
                throw ApiException.badField(
                        field, "does not hold filterValue as a verified email (claims email and email_verified)");
            }
        } else {
            throw ApiException.badField(
                    body.pathOf("verificationToken"),
                    "is required to look up an account by "
                            + (type == OtpType.OTP_TYPE_EMAIL ? "EMAIL" : "PHONE_NUMBER")
                            + " (or, for an email, an oidcToken holding it as a verified email)");
        }
        return transactor.read(tx -> otps.usersWithContact(tx, organizationId, type, contact)).stream()
                .findFirst()
                .map(OtpRepository.Member::organizationId);
    }

    private Optional<String> byClaims(Params body, String organizationId, String value) {
        String field = body.pathOf("filterValue");
        JsonNode claims;
        try {
            claims = JSON.readTree(value);
        } catch (JacksonException e) {
            claims = null;
        }
        if (claims == null
                || !claims.isObject()
                || !claims.path("iss").isString()
                || !claims.path("sub").isString()
                || !claims.path("aud").isString()) {
            throw ApiException.badField(field, "must be the JSON {\"iss\",\"sub\",\"aud\"} of an OIDC identity");
        }
        return byIdentity(
                organizationId,
                claims.path("iss").asString(),
                claims.path("aud").asString(),
                claims.path("sub").asString());
    }

    private Optional<String> byIdentity(String organizationId, String issuer, String audience, String subject) {
        return transactor.read(tx -> oauthLogins.owners(tx, organizationId, issuer, audience, subject)).stream()
                .findFirst()
                .map(OauthProvider::organizationId);
    }

    private Optional<String> byCredential(String organizationId, CredentialOwners.Kind kind, String key) {
        return transactor.read(tx -> credentials.organizationHolding(tx, organizationId, kind, key));
    }

    /** An ID token verified but for its nonce; a bad one is a 400 naming where the request holds it. */
    private VerifiedIdToken identify(String token, String field) {
        try {
            return oauthLogins.identify(token);
        } catch (ApiException e) {
            if (e.code() == ErrorCode.INVALID_OIDC_TOKEN && e.field().isEmpty()) {
                throw new ApiException(e.code(), e.getMessage(), field);
            }
            throw e;
        }
    }

    /** An API key as stored: lowercase hex, without {@code 0x}. */
    private static String publicKey(Params body, String value) {
        String hex = value.startsWith("0x") ? value.substring(2) : value;
        try {
            HexFormat.of().parseHex(hex);
        } catch (IllegalArgumentException e) {
            throw ApiException.badField(body.pathOf("filterValue"), "must be a public key in hex");
        }
        if (hex.isEmpty()) {
            throw ApiException.badField(body.pathOf("filterValue"), "must be a public key in hex");
        }
        return hex.toLowerCase(Locale.ROOT);
    }

    /** A passkey's credential id as stored: base64url without padding (standard base64 is accepted too). */
    private static String credentialId(Params body, String value) {
        String id = value.replace('+', '-').replace('/', '_');
        while (id.endsWith("=")) {
            id = id.substring(0, id.length() - 1);
        }
        if (id.isEmpty() || !id.matches("[A-Za-z0-9_-]+")) {
            throw ApiException.badField(body.pathOf("filterValue"), "must be a credential id in base64url");
        }
        return id;
    }
}
