package dev.keyhaven.server.authproxy;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.oauthlogin.OauthLogin;
import dev.keyhaven.server.otp.OtpRepository;
import dev.keyhaven.server.otp.RateLimiter;
import dev.keyhaven.server.state.StateVersions;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.user.OauthProvider;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /v1/oauth_login} ({@code {oidcToken, publicKey, expirationSeconds?, invalidateExisting?,
 * organizationId?}} → {@code {session}}): the token is verified first (outside the transaction); the user holding
 * its identity is looked up in the configuration's organization and its sub-organizations (or in
 * {@code organizationId}, which must be one of them), and signed up as the root user of a new sub-organization when
 * none does and the configuration allows sign-up. It needs no channel flag: only tokens of the operator's trusted
 * issuers are accepted. Each client address has a budget of OAuth sign-ins: each may create a sub-organization.
 */
final class OauthLoginEndpoint implements AuthProxyEndpoint {
    private final OauthLogin oauthLogins;
    private final LoginSignUps signUps;
    private final RateLimiter perAddress;
    private final Transactor transactor;
    private final StateVersions versions;
    private final Clock clock;
    private final Ids ids;

    OauthLoginEndpoint(
            OauthLogin oauthLogins,
            LoginSignUps signUps,
            RateLimiter perAddress,
            Transactor transactor,
            StateVersions versions,
            Clock clock,
            Ids ids) {
        this.oauthLogins = oauthLogins;
        this.signUps = signUps;
        this.perAddress = perAddress;
        this.transactor = transactor;
        this.versions = versions;
        this.clock = clock;
        this.ids = ids;
    }

    @Override
    public Object answer(AuthProxyRequest proxied) {
        perAddress.acquire(proxied.clientAddress(), "client address");
        AuthProxyConfig config = proxied.config();
        Params body = proxied.body();
        OauthLogin.Request request = oauthLogins.read(body, config.sessionExpirationSeconds());
        Optional<String> requestedOrganization = body.optionalString("organizationId");
        // A new identity signs up only with a provider the configuration offers (SignUpMethods).
        String provider = SignUpMethods.providerOf(
                config, request.token().issuer(), request.token().audience());
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
                    .or(() -> requestedOrganization.isEmpty() && config.allowsSignUpWith(provider)
                            ? Optional.of(signUps.withOidcIdentity(tx, org, request.token()))
                            : Optional.empty())
                    .orElseThrow(() -> ApiException.notFound("no account has an OAuth provider for this OIDC "
                            + "token's identity, and this auth proxy config does not allow sign-up with '"
                            + provider + "' (signupEnabled and enabledProviders)"));
            versions.advance(tx, member.organizationId());
            return oauthLogins.login(tx, member.organizationId(), member.userId(), request, clock.instant(), ids);
        });
        return Map.of("session", session);
    }
}
