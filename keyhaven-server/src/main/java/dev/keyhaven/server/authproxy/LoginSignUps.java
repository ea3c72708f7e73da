package dev.keyhaven.server.authproxy;

import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.oidc.VerifiedIdToken;
import dev.keyhaven.server.organization.SubOrganizationCreator;
import dev.keyhaven.server.otp.OtpRepository;
import dev.keyhaven.server.otp.OtpService;
import dev.keyhaven.server.otp.OtpType;
import dev.keyhaven.server.tx.Tx;
import dev.keyhaven.server.user.NewOauthProvider;
import dev.keyhaven.server.user.NewUser;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * The sign-up a login does for a proven identity that no account holds yet (when the configuration allows sign-up):
 * a sub-organization of the configuration's organization whose one root user (quorum 1) holds the proven contact
 * or OAuth identity; the session key the login opens is its first credential.
 */
final class LoginSignUps {
    private final SubOrganizationCreator subOrganizations;
    private final Clock clock;
    private final Ids ids;

    LoginSignUps(SubOrganizationCreator subOrganizations, Clock clock, Ids ids) {
        this.subOrganizations = subOrganizations;
        this.clock = clock;
        this.ids = ids;
    }

    /** For a verified email address or phone number. */
    OtpRepository.Member withContact(Tx tx, String organizationId, OtpService.TokenClaims claims) {
        boolean email = claims.type() == OtpType.OTP_TYPE_EMAIL;
        NewUser user = new NewUser(
                "User " + claims.contact(),
                email ? Optional.of(claims.contact()) : Optional.empty(),
                email ? Optional.empty() : Optional.of(claims.contact()),
                List.of(),
                List.of(),
                List.of());
        OtpRepository.Member member = create(tx, organizationId, "Sign-up " + claims.contact(), user);
        // The verification token proves the contact: list_verified_suborgs finds the new account by it.
        subOrganizations.markContactVerified(tx, member.userId(), email);
        return member;
    }

    /** For an OIDC identity: the user holds it as an OAuth provider. */
    OtpRepository.Member withOidcIdentity(Tx tx, String organizationId, VerifiedIdToken token) {
        NewUser user = new NewUser(
                "User " + token.subject(),
                Optional.empty(),
                Optional.empty(),
                List.of(),
                List.of(),
                List.of(),
                List.of(new NewOauthProvider(token.issuer(), token.issuer(), token.audience(), token.subject())));
        return create(tx, organizationId, "Sign-up " + token.subject(), user);
    }

    private OtpRepository.Member create(Tx tx, String organizationId, String name, NewUser user) {
        SubOrganizationCreator.Created created =
                subOrganizations.create(tx, organizationId, name, List.of(user), 1, clock.instant(), ids);
        return new OtpRepository.Member(
                created.organizationId(), created.rootUserIds().getFirst());
    }
}
