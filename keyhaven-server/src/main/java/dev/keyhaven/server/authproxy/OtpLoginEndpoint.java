package dev.keyhaven.server.authproxy;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.otp.OtpRepository;
import dev.keyhaven.server.otp.OtpService;
import dev.keyhaven.server.state.StateVersions;
import dev.keyhaven.server.tx.Transactor;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /v1/otp_login_v2} ({@code {verificationToken, publicKey, clientSignature, expirationSeconds?,
 * invalidateExisting?, organizationId?}}) and the older {@code /v1/otp_login} (the client signature optional for a
 * token bound to no key) → {@code {session}}. The session opens in the organization of the user with the token's
 * contact: the configuration's organization or one of its sub-organizations, or {@code organizationId} when given;
 * with none, a new account is signed up when the configuration allows it ({@link LoginSignUps}).
 */
final class OtpLoginEndpoint {
    private final OtpService otps;
    private final LoginSignUps signUps;
    private final Transactor transactor;
    private final StateVersions versions;
    private final Clock clock;
    private final Ids ids;

    OtpLoginEndpoint(
            OtpService otps,
            LoginSignUps signUps,
            Transactor transactor,
            StateVersions versions,
            Clock clock,
            Ids ids) {
        this.otps = otps;
        this.signUps = signUps;
        this.transactor = transactor;
        this.versions = versions;
        this.clock = clock;
        this.ids = ids;
    }

    /** {@code otp_login_v2}: the client signature is required. */
    Object v2(AuthProxyRequest request) {
        return login(request, true);
    }

    /** {@code otp_login}. */
    Object v1(AuthProxyRequest request) {
        return login(request, false);
    }

    private Map<String, String> login(AuthProxyRequest proxied, boolean signatureRequired) {
        AuthProxyConfig config = proxied.config();
        Params body = proxied.body();
        OtpService.LoginRequest request =
                OtpService.readLogin(body, config.sessionExpirationSeconds(), signatureRequired);
        Optional<String> requestedOrganization = body.optionalString("organizationId");
        String session = transactor.write(tx -> {
            String org = config.organizationId();
            OtpService.TokenClaims claims =
                    otps.claims(tx, requestedOrganization.orElse(org), request, clock.instant());
            if (!claims.organizationId().equals(org)) {
                throw ApiException.badField(request.tokenField(), "was not issued through this auth proxy config");
            }
            OtpRepository.Member member = requestedOrganization
                    .map(target -> otps.userIn(tx, target, claims).map(u -> new OtpRepository.Member(target, u)))
                    .orElseGet(() -> only(otps.members(tx, org, claims))
                            .or(() -> config.signupEnabled()
                                    ? Optional.of(signUps.withContact(tx, org, claims))
                                    : Optional.empty()))
                    .orElseThrow(() -> ApiException.notFound(
                            "no account has this contact, and this auth proxy config does not allow sign-up"));
            // The session key is a credential of that organization: its state moves on first (the lock order of
            // activities), so servers remembering its credentials notice.
            versions.advance(tx, member.organizationId());
            return otps.login(tx, member.organizationId(), member.userId(), claims, request, clock.instant(), ids);
        });
        return Map.of("session", session);
    }

    private static Optional<OtpRepository.Member> only(List<OtpRepository.Member> members) {
        if (members.size() > 1) {
            throw ApiException.badRequest("several accounts have this contact; pass organizationId to choose one");
        }
        return members.stream().findFirst();
    }
}
