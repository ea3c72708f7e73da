package dev.keyhaven.server.authproxy;

import dev.keyhaven.server.activity.AddressLog;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.auth.CallerDirectory;
import dev.keyhaven.server.auth.VerifiedStamp;
import dev.keyhaven.server.oidc.OidcVerifier;
import dev.keyhaven.server.organization.SubOrganizationCreator;
import dev.keyhaven.server.otp.OtpService;
import dev.keyhaven.server.otp.OtpType;
import dev.keyhaven.server.otp.RateLimiter;
import dev.keyhaven.server.state.StateVersions;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.tx.Tx;
import dev.keyhaven.server.user.AttestationVerifier;
import dev.keyhaven.server.user.NewApiKey;
import dev.keyhaven.server.user.NewAuthenticator;
import dev.keyhaven.server.user.NewUser;
import dev.keyhaven.server.wallet.NewWallet;
import dev.keyhaven.server.wallet.WalletCreator;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code /v1/signup_v2} and the older {@code /v1/signup}: a new end user signs up through the auth proxy. The result is
 * a sub-organization of the configuration's organization whose one root user (quorum 1) holds the credentials the
 * request carries: passkeys (verified attestations), API keys (the passkey flow's short-lived key, a wallet's key),
 * OAuth providers (OIDC tokens verified now) and a contact, plus an optional wallet, all in one transaction.
 *
 * <p>An email or phone number becomes a login identity (OTP login and attested stamps find the user by it), so it is
 * only accepted with a verification token of this configuration's organization for exactly that contact, and a token
 * bound to a key also needs that key's {@code clientSignature} over the request's credentials: whoever proved the
 * contact chose them. A token signs up once, and a contact, API key or passkey already held in the configuration's
 * organization or its sub-organizations is refused, so later sign-ins stay unambiguous.
 */
public final class SignUp {
    static final String SIGNUP_USAGE = "USAGE_TYPE_SIGNUP";

    private final OtpService otps;
    private final SubOrganizationCreator subOrganizations;
    private final WalletCreator wallets;
    private final AttestationVerifier attestations;
    private final OidcVerifier oidc;
    private final CallerDirectory credentials;
    private final Transactor transactor;
    private final StateVersions versions;
    private final RateLimiter perAddress;
    private final Clock clock;
    private final Ids ids;

    /**
     * @param perAddress the sign-in requests of each client address (shared with the OAuth sign-ins): each sign-up
     *        creates a sub-organization and none is stamped
     */
    public SignUp(
            OtpService otps,
            SubOrganizationCreator subOrganizations,
            WalletCreator wallets,
            AttestationVerifier attestations,
            OidcVerifier oidc,
            CallerDirectory credentials,
            Transactor transactor,
            StateVersions versions,
            RateLimiter perAddress,
            Clock clock,
            Ids ids) {
        this.otps = otps;
        this.subOrganizations = subOrganizations;
        this.wallets = wallets;
        this.attestations = attestations;
        this.oidc = oidc;
        this.credentials = credentials;
        this.transactor = transactor;
        this.versions = versions;
        this.perAddress = perAddress;
        this.clock = clock;
        this.ids = ids;
    }

    /**
     * Signs up the user {@code body} describes ({@code v2}: {@code v1SignupV2Request}, else {@code v1SignupRequest},
     * whose OAuth providers carry a token only) and answers {@code {organizationId, userId, wallet?}}.
     */
    public Map<String, Object> signUp(AuthProxyConfig config, Params body, String clientAddress, boolean v2) {
        perAddress.acquire(clientAddress, "client address");
        if (!config.signupEnabled()) {
            throw ApiException.badRequest("this auth proxy config does not allow sign-up (signupEnabled is false)");
        }
        boolean hasContact = body.has("userEmail") || body.has("userPhoneNumber");
        if (!hasContact
                && noneGiven(body, "apiKeys")
                && noneGiven(body, "authenticators")
                && noneGiven(body, "oauthProviders")) {
            throw ApiException.badRequest("a sign-up needs a credential: apiKeys, authenticators, oauthProviders, or "
                    + "a userEmail or userPhoneNumber with its verificationToken");
        }
        SignUpMethods.checkPasskeys(config, body);
        Instant now = clock.instant();
        // The proof first: nothing about the credentials is verified for a request that cannot sign up.
        Optional<OtpService.TokenClaims> claims = body.optionalString("verificationToken")
                .map(token -> otps.unexpiredClaims(token, body.pathOf("verificationToken"), now));
        claims.ifPresent(c -> checkToken(config, body, c));
        if (claims.isEmpty()) {
            for (String contact : List.of("userEmail", "userPhoneNumber")) {
                if (body.has(contact)) {
                    throw ApiException.badField(
                            body.pathOf(contact),
                            "needs a verificationToken (from otp_verify) proving it: a contact is a login identity");
                }
            }
            if (body.has("clientSignature")) {
                throw ApiException.badField(
                        body.pathOf("clientSignature"), "is only accepted with the verificationToken it signs for");
            }
        }
        claims.ifPresent(c -> SignUpSignature.check(c, body, v2));
        NewUser.Shape shape = NewUser.Shape.CURRENT
                .root()
                .oauthProviders(v2 ? NewUser.OauthProviders.TOKENS_OR_CLAIMS : NewUser.OauthProviders.TOKENS_ONLY);
        NewUser user = NewUser.read(withUserName(body), shape, attestations, oidc);
        SignUpMethods.checkCredentials(config, body, user, claims.isPresent());
        String name = body.optionalString("organizationName")
                .filter(s -> !s.isBlank())
                .orElse("sub-org-" + now.toEpochMilli());
        Optional<NewWallet> wallet = body.optionalObject("wallet").map(NewWallet::read);
        return transactor.write(tx -> {
            String parent = config.organizationId();
            // The parent gains a sub-organization: its state moves on first, the lock order of activities.
            versions.advance(tx, parent);
            if (claims.isPresent()) {
                refuseTakenContact(tx, parent, body, claims.get());
                if (!otps.useForSignUp(tx, claims.get(), now)) {
                    throw ApiException.badField(
                            body.pathOf("verificationToken"), "was already used to sign up; log in with it instead");
                }
            }
            refuseTakenCredentials(tx, parent, body, user);
            SubOrganizationCreator.Created created =
                    subOrganizations.create(tx, parent, name, List.of(user), 1, now, ids);
            // A contact arrives only with the verification token that proves it (checked above).
            claims.ifPresent(c -> subOrganizations.markContactVerified(
                    tx, created.rootUserIds().getFirst(), c.type() == OtpType.OTP_TYPE_EMAIL));
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("organizationId", created.organizationId());
            result.put("userId", created.rootUserIds().getFirst());
            wallet.ifPresent(w -> {
                WalletCreator.Created made =
                        wallets.create(tx, created.organizationId(), w, now, ids, AddressLog.IGNORED);
                result.put("wallet", Map.of("walletId", made.walletId(), "addresses", made.addresses()));
            });
            return result;
        });
    }

    private static boolean noneGiven(Params body, String array) {
        JsonNode node = body.node().path(array);
        return !node.isArray() || node.isEmpty();
    }

    /**
     * The token was issued through this configuration's organization, for the contact the request names, on a channel
     * the configuration has on; the request names no other contact.
     */
    private static void checkToken(AuthProxyConfig config, Params body, OtpService.TokenClaims claims) {
        String tokenField = body.pathOf("verificationToken");
        if (!claims.organizationId().equals(config.organizationId())) {
            throw ApiException.badField(tokenField, "was not issued through this auth proxy config");
        }
        boolean email = claims.type() == OtpType.OTP_TYPE_EMAIL;
        String proven = email ? "userEmail" : "userPhoneNumber";
        String other = email ? "userPhoneNumber" : "userEmail";
        if (!(email ? config.emailEnabled() : config.smsEnabled())) {
            throw ApiException.badField(
                    tokenField,
                    "proves " + (email ? "an email address" : "a phone number") + ", and that sign-in method is "
                            + "not enabled in this auth proxy config");
        }
        if (body.has(other)) {
            throw ApiException.badField(
                    body.pathOf(other), "is not proven: the verification token proves the " + proven + " only");
        }
        String given = body.optionalString(proven)
                .orElseThrow(() -> ApiException.badField(
                        body.pathOf(proven), "is required: the verification token proves " + claims.contact()));
        boolean same = email
                ? given.toLowerCase(Locale.ROOT).equals(claims.contact().toLowerCase(Locale.ROOT))
                : given.equals(claims.contact());
        if (!same) {
            throw ApiException.badField(body.pathOf(proven), "is not the contact the verification token proves");
        }
    }

    /** core always names the user; the API does not require it: the contact, else a timestamped name. */
    private Params withUserName(Params body) {
        if (body.optionalString("userName").filter(s -> !s.isBlank()).isPresent()) {
            return body;
        }
        ObjectNode copy = (ObjectNode) body.node().deepCopy();
        copy.put(
                "userName",
                body.optionalString("userEmail")
                        .or(() -> body.optionalString("userPhoneNumber"))
                        .orElse("user-" + clock.millis()));
        return Params.of(copy, body.path());
    }

    private void refuseTakenContact(Tx tx, String parent, Params body, OtpService.TokenClaims claims) {
        if (!otps.members(tx, parent, claims).isEmpty()) {
            String field = claims.type() == OtpType.OTP_TYPE_EMAIL ? "userEmail" : "userPhoneNumber";
            throw new ApiException(
                    ErrorCode.CONFLICT,
                    "an account with this " + (claims.type() == OtpType.OTP_TYPE_EMAIL ? "email" : "phone number")
                            + " already exists: log in with the verification token instead",
                    body.pathOf(field));
        }
    }

    /** An API key or passkey already held in the organization family would make sign-in by it ambiguous. */
    private void refuseTakenCredentials(Tx tx, String parent, Params body, NewUser user) {
        for (int i = 0; i < user.apiKeys().size(); i++) {
            NewApiKey key = user.apiKeys().get(i);
            if (taken(tx, parent, VerifiedStamp.Kind.API_KEY, key.publicKey())) {
                throw new ApiException(
                        ErrorCode.CONFLICT,
                        "an account already holds this API key: sign in with it instead",
                        body.pathOf("apiKeys") + "[" + i + "].publicKey");
            }
        }
        for (int i = 0; i < user.authenticators().size(); i++) {
            NewAuthenticator authenticator = user.authenticators().get(i);
            if (taken(
                    tx,
                    parent,
                    VerifiedStamp.Kind.WEBAUTHN,
                    authenticator.passkey().credentialId())) {
                throw new ApiException(
                        ErrorCode.CONFLICT,
                        "an account already holds this passkey: sign in with it instead",
                        body.pathOf("authenticators") + "[" + i + "].attestation.credentialId");
            }
        }
    }

    private boolean taken(Tx tx, String parent, VerifiedStamp.Kind kind, String key) {
        return credentials.credential(tx, parent, kind, key).isPresent()
                || !credentials
                        .credentialInSubOrganizations(tx, parent, kind, key)
                        .isEmpty();
    }
}
