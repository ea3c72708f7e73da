package dev.keyhaven.server.authproxy;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.oauth2.Oauth2Authenticator;
import dev.keyhaven.server.oauthlogin.OauthLogin;
import dev.keyhaven.server.oidc.VerifiedIdToken;
import dev.keyhaven.server.organization.SubOrganizationCreator;
import dev.keyhaven.server.otp.OtpRepository;
import dev.keyhaven.server.otp.OtpService;
import dev.keyhaven.server.otp.OtpType;
import dev.keyhaven.server.otp.RateLimiter;
import dev.keyhaven.server.recovery.CodeMail;
import dev.keyhaven.server.state.StateVersions;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.user.NewOauthProvider;
import dev.keyhaven.server.user.NewUser;
import dev.keyhaven.server.user.OauthProvider;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The auth proxy's operations, each checked against the configuration the request names: the configuration exists
 * (404), the browser's {@code Origin} is allowed (403), the channel is enabled (400). The OTP runs in the
 * configuration's organization; a login opens the session in the organization of the user with the token's contact
 * (the organization itself or one of its sub-organizations, or {@code organizationId} when given). An OIDC login
 * ({@code oauth_login}) needs no channel flag: only tokens of the operator's trusted issuers are accepted.
 */
public final class AuthProxy {
    /** The paths served, without {@code /v1/}: each also with {@code _v2}. */
    public static final List<String> OPERATIONS = List.of("otp_init", "otp_verify", "otp_login");
    /** Operations served under one path only (no {@code _v2} twin). */
    public static final List<String> UNVERSIONED_OPERATIONS = List.of("oauth2_authenticate", "oauth_login");

    private final AuthProxyConfigs configs;
    private final OtpService otps;
    private final CodeMail mail;
    private final SubOrganizationCreator subOrganizations;
    private final Transactor transactor;
    private final StateVersions versions;
    private final Clock clock;
    private final Ids ids;
    private final Oauth2Authenticator oauth2;
    private final OauthLogin oauthLogins;
    private final RateLimiter oauthPerAddress;

    /**
     * @param oauthPerAddress counts the OAuth sign-ins ({@code oauth_login}, {@code oauth2_authenticate}) of each
     *        client address: each one may create a sub-organization or call the provider, and none is stamped
     */
    public AuthProxy(
            AuthProxyConfigs configs,
            OtpService otps,
            CodeMail mail,
            SubOrganizationCreator subOrganizations,
            Transactor transactor,
            StateVersions versions,
            Clock clock,
            Ids ids,
            Oauth2Authenticator oauth2,
            OauthLogin oauthLogins,
            RateLimiter oauthPerAddress) {
        this.oauthLogins = oauthLogins;
        this.oauthPerAddress = oauthPerAddress;
        this.configs = configs;
        this.otps = otps;
        this.mail = mail;
        this.subOrganizations = subOrganizations;
        this.transactor = transactor;
        this.versions = versions;
        this.clock = clock;
        this.ids = ids;
        this.oauth2 = oauth2;
    }

    /** The configuration ids with their organizations, for the start-up announcement. */
    public List<AuthProxyConfig> configurations() {
        return configs.all();
    }

    /**
     * Checks the configuration and the origin: the configuration, or a 400 (no id), 404 (unknown id) or 403
     * (origin not allowed).
     */
    public AuthProxyConfig admit(Optional<String> configId, Optional<String> origin) {
        String id = configId.filter(s -> !s.isBlank())
                .orElseThrow(() -> ApiException.badRequest("the X-Auth-Proxy-Config-Id header is required"));
        AuthProxyConfig config = configs.require(id);
        if (origin.isPresent() && !config.allows(origin.get())) {
            throw new ApiException(
                    ErrorCode.REQUEST_NOT_AUTHORIZED,
                    "origin " + origin.get() + " is not allowed by this auth proxy config");
        }
        return config;
    }

    /** Runs {@code operation} ({@code otp_init_v2}, {@code otp_verify}, …) for an admitted request. */
    public Map<String, String> handle(AuthProxyConfig config, String operation, Params body, String clientAddress) {
        boolean v2 = operation.endsWith("_v2");
        return switch (v2 ? operation.substring(0, operation.length() - 3) : operation) {
            case "otp_init" -> init(config, body, clientAddress);
            case "otp_verify" -> verify(config, body, v2);
            case "otp_login" -> login(config, body, v2);
            // Reads the credential in a read transaction, then exchanges the code outside any transaction.
            case "oauth2_authenticate" -> {
                oauthPerAddress.acquire(clientAddress, "client address");
                yield oauth2.proxyAuthenticate(config.organizationId(), body);
            }
            // oauth_login has no _v2 form
            case "oauth_login" -> {
                if (v2) {
                    yield unknown(operation);
                }
                oauthPerAddress.acquire(clientAddress, "client address");
                yield oauthLogin(config, body);
            }
            default -> unknown(operation);
        };
    }

    private static Map<String, String> unknown(String operation) {
        throw new ApiException(ErrorCode.UNKNOWN_OPERATION, "unknown operation: " + operation);
    }

    /**
     * {@code oauth_login}: the token is verified first (outside the transaction); the user holding its identity is
     * looked up in the config's organization and its sub-organizations (or in {@code organizationId}, which must be
     * one of them), and signed up as the root user of a new sub-organization when none does and the config allows
     * sign-up.
     */
    private Map<String, String> oauthLogin(AuthProxyConfig config, Params body) {
        OauthLogin.Request request = oauthLogins.read(body, config.sessionExpirationSeconds());
        Optional<String> requestedOrganization = body.optionalString("organizationId");
        String session = transactor.write(tx -> {
            String org = config.organizationId();
            List<OauthProvider> owners = oauthLogins.owners(tx, org, request.token()).stream()
                    .filter(p -> requestedOrganization
                            .map(p.organizationId()::equals)
                            .orElse(true))
                    .toList();
            OtpRepository.Member member = owners.stream()
                    .findFirst()
                    .map(p -> new OtpRepository.Member(p.organizationId(), p.userId()))
                    .or(() -> config.signupEnabled() && requestedOrganization.isEmpty()
                            ? Optional.of(signUp(tx, org, request.token()))
                            : Optional.empty())
                    .orElseThrow(() -> ApiException.notFound("no account has an OAuth provider for this OIDC "
                            + "token's identity, and this auth proxy config does not allow sign-up"));
            versions.advance(tx, member.organizationId());
            return oauthLogins.login(tx, member.organizationId(), member.userId(), request, clock.instant(), ids);
        });
        return Map.of("session", session);
    }

    /** Sign-up by OIDC: a sub-organization whose one root user holds the token's identity as an OAuth provider. */
    private OtpRepository.Member signUp(dev.keyhaven.server.tx.Tx tx, String org, VerifiedIdToken token) {
        NewUser user = new NewUser(
                "User " + token.subject(),
                Optional.empty(),
                Optional.empty(),
                List.of(),
                List.of(),
                List.of(),
                List.of(new NewOauthProvider(token.issuer(), token.issuer(), token.audience(), token.subject())));
        SubOrganizationCreator.Created created =
                subOrganizations.create(tx, org, "Sign-up " + token.subject(), List.of(user), 1, clock.instant(), ids);
        return new OtpRepository.Member(
                created.organizationId(), created.rootUserIds().getFirst());
    }

    private Map<String, String> init(AuthProxyConfig config, Params body, String clientAddress) {
        OtpType type = body.requiredEnum("otpType", OtpType.class);
        if (type == OtpType.OTP_TYPE_EMAIL ? !config.emailEnabled() : !config.smsEnabled()) {
            throw ApiException.badField(body.pathOf("otpType"), "is not enabled in this auth proxy config");
        }
        String contact = OtpService.contact(type, body.requiredString("contact"), body.pathOf("contact"));
        Optional<CodeMail.Look> look = Optional.empty();
        if (type == OtpType.OTP_TYPE_EMAIL) {
            Optional<String> requested = body.optionalObject("emailCustomization")
                    .flatMap(c -> c.optionalString("templateId"))
                    .filter(s -> !s.isBlank());
            look = Optional.of(
                    mail.read(Params.of(emailIntent(requested.or(config::emailTemplateId)), ""), config.appName()));
        }
        OtpService.CodeRequest request = new OtpService.CodeRequest(
                type,
                contact,
                config.appName(),
                config.otpLength(),
                config.alphanumeric(),
                config.otpExpirationSeconds(),
                look,
                Optional.empty());
        OtpService.Initiated initiated = transactor.write(tx ->
                otps.init(tx, config.organizationId(), request, Optional.of(clientAddress), clock.instant(), ids));
        return Map.of("otpId", initiated.otpId(), "otpEncryptionTargetBundle", initiated.otpEncryptionTargetBundle());
    }

    /** Only the template id travels from a proxy request into the email; the rest comes from the config. */
    private static tools.jackson.databind.JsonNode emailIntent(Optional<String> templateId) {
        tools.jackson.databind.node.ObjectNode intent =
                tools.jackson.databind.json.JsonMapper.builder().build().createObjectNode();
        templateId.ifPresent(id -> intent.putObject("emailCustomization").put("templateId", id));
        return intent;
    }

    private Map<String, String> verify(AuthProxyConfig config, Params body, boolean v2) {
        String otpId = body.requiredString("otpId");
        long tokenSeconds = OtpService.DEFAULT_TOKEN_SECONDS;
        OtpService.Verified verified = v2
                ? transactor.write(tx -> otps.verify(
                        tx,
                        config.organizationId(),
                        otpId,
                        body.requiredString("encryptedOtpBundle"),
                        tokenSeconds,
                        clock.instant(),
                        ids))
                : transactor.write(tx -> otps.verifyPlain(
                        tx,
                        config.organizationId(),
                        otpId,
                        body.requiredString("otpCode"),
                        body.optionalString("publicKey"),
                        tokenSeconds,
                        clock.instant(),
                        ids));
        return Map.of("verificationToken", verified.verificationToken());
    }

    private Map<String, String> login(AuthProxyConfig config, Params body, boolean v2) {
        OtpService.LoginRequest request = OtpService.readLogin(body, config.sessionExpirationSeconds(), v2);
        Optional<String> requestedOrganization = body.optionalString("organizationId");
        String session = transactor.write(tx -> {
            String org = config.organizationId();
            OtpService.TokenClaims claims =
                    otps.claims(tx, requestedOrganization.orElse(org), request, clock.instant());
            if (!claims.organizationId().equals(org)) {
                throw ApiException.badField("verificationToken", "was not issued through this auth proxy config");
            }
            OtpRepository.Member member = requestedOrganization
                    .map(target -> otps.userIn(tx, target, claims).map(u -> new OtpRepository.Member(target, u)))
                    .orElseGet(() -> only(otps.members(tx, org, claims))
                            .or(() -> config.signupEnabled() ? Optional.of(signUp(tx, org, claims)) : Optional.empty()))
                    .orElseThrow(() -> ApiException.notFound(
                            "no account has this contact, and this auth proxy config does not allow sign-up"));
            // The session key is a credential of that organization: its state moves on first (the lock order of
            // activities), so servers remembering its credentials notice.
            versions.advance(tx, member.organizationId());
            return otps.login(tx, member.organizationId(), member.userId(), claims, request, clock.instant(), ids);
        });
        return Map.of("session", session);
    }

    /**
     * Sign-up: a sub-organization of the config's organization for the new user, its one root user (quorum 1)
     * holding the proven contact; the session key is its first credential.
     */
    private OtpRepository.Member signUp(dev.keyhaven.server.tx.Tx tx, String org, OtpService.TokenClaims claims) {
        boolean email = claims.type() == OtpType.OTP_TYPE_EMAIL;
        NewUser user = new NewUser(
                "User " + claims.contact(),
                email ? Optional.of(claims.contact()) : Optional.empty(),
                email ? Optional.empty() : Optional.of(claims.contact()),
                List.of(),
                List.of(),
                List.of());
        SubOrganizationCreator.Created created =
                subOrganizations.create(tx, org, "Sign-up " + claims.contact(), List.of(user), 1, clock.instant(), ids);
        // The verification token proves the contact: list_verified_suborgs finds the new account by it.
        subOrganizations.markContactVerified(tx, created.rootUserIds().getFirst(), email);
        return new OtpRepository.Member(
                created.organizationId(), created.rootUserIds().getFirst());
    }

    private static Optional<OtpRepository.Member> only(List<OtpRepository.Member> members) {
        if (members.size() > 1) {
            throw ApiException.badRequest("several accounts have this contact; pass organizationId to choose one");
        }
        return members.stream().findFirst();
    }
}
