package dev.keyhaven.server.app;

import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.VoteHandler;
import dev.keyhaven.server.auth.CallerDirectory;
import dev.keyhaven.server.auth.VerifiedStamp;
import dev.keyhaven.server.authproxy.AuthProxyFeature;
import dev.keyhaven.server.authproxy.CaptchaVerifier;
import dev.keyhaven.server.authproxy.CredentialOwners;
import dev.keyhaven.server.export.ExportFeature;
import dev.keyhaven.server.keyimport.ImportFeature;
import dev.keyhaven.server.oauth2.Oauth2Feature;
import dev.keyhaven.server.oauthlogin.OauthLoginFeature;
import dev.keyhaven.server.organization.OrganizationFeature;
import dev.keyhaven.server.otp.OtpFeature;
import dev.keyhaven.server.otp.RateLimiter;
import dev.keyhaven.server.policy.PolicyFeature;
import dev.keyhaven.server.privatekey.PrivateKeyFeature;
import dev.keyhaven.server.recovery.RecoveryFeature;
import dev.keyhaven.server.session.SessionFeature;
import dev.keyhaven.server.signing.SigningFeature;
import dev.keyhaven.server.smartcontract.SmartContractFeature;
import dev.keyhaven.server.tvc.TvcFeature;
import dev.keyhaven.server.user.UserFeature;
import dev.keyhaven.server.user.UserSnapshots;
import dev.keyhaven.server.wallet.WalletFeature;
import dev.keyhaven.server.webhook.WebhookFeature;
import java.util.ArrayList;
import java.util.List;

/**
 * Every feature, assembled from the {@link Foundation} in dependency order; each feature's own class (in its package)
 * builds its handlers and queries. Reading the constructor top to bottom is reading what Keyhaven does.
 */
final class Features {
    final UserFeature users;
    final WalletFeature wallets;
    final PrivateKeyFeature privateKeys;
    final OrganizationFeature organizations;
    final SmartContractFeature contractInterfaces;
    final SigningFeature signing;
    /** The voters' view of users the policy engine reads (credentials and tags, as JSON). */
    final UserSnapshots voters;

    final PolicyFeature policies;
    final TvcFeature tvc;
    final ExportFeature exports;
    final ImportFeature imports;
    final RecoveryFeature recovery;
    final WebhookFeature webhooks;
    final SessionFeature sessions;
    final OtpFeature otp;
    final Oauth2Feature oauth2;
    final OauthLoginFeature oauthLogin;
    final AuthProxyFeature authProxy;

    Features(Foundation base) {
        KeyhavenConfig config = base.config;
        Repositories repositories = base.repositories;
        ServerKeys keys = base.keys;
        OtpSettings otpLimits = config.otp();

        users = new UserFeature(
                base.transactor,
                repositories.users,
                repositories.oauthProviders,
                config.limits(),
                base.passkeys,
                base.oidc);
        wallets = new WalletFeature(base.transactor, repositories.wallets, keys.custody, base.json);
        privateKeys = new PrivateKeyFeature(
                base.transactor, repositories.privateKeys, repositories.users, keys.custody, config.limits());
        organizations = new OrganizationFeature(
                base.transactor,
                repositories.organizations,
                repositories.users,
                repositories.oauthProviders,
                users.creator(),
                wallets.creator(),
                privateKeys.generator(),
                base.passkeys,
                base.oidc,
                base.clock,
                base.ids);
        contractInterfaces = new SmartContractFeature(base.transactor, repositories.contractInterfaces);
        signing = new SigningFeature(
                repositories.wallets, repositories.privateKeys, keys.custody, contractInterfaces.contracts());
        voters = new UserSnapshots(users.queries(), base.json);
        policies = new PolicyFeature(base.transactor, repositories.policies, repositories.organizations, voters);
        tvc = new TvcFeature(base.transactor, repositories.tvc, base.json);
        exports = new ExportFeature(repositories.wallets, repositories.privateKeys, keys.transfer);
        imports = new ImportFeature(
                repositories.importTargets,
                repositories.users,
                keys.transfer,
                wallets.creator(),
                privateKeys.creator());
        webhooks = new WebhookFeature(
                base.transactor,
                repositories.webhooks,
                keys.custody,
                config.webhooks(),
                base.clock,
                base.ids,
                base.random);
        sessions = new SessionFeature(
                base.transactor,
                repositories.users,
                repositories.organizations,
                users.credentials(),
                keys.sessionTokens,
                keys.transfer,
                base.clock);
        recovery = new RecoveryFeature(
                repositories.users,
                repositories.recoveryCredentials,
                users.credentials(),
                keys.transfer,
                base.passkeys,
                base.messaging.mailer,
                base.messaging.defaultFrom,
                base.messaging.templates,
                sessions.bundleKeys(),
                repositories.organizations);
        otp = new OtpFeature(
                base.transactor,
                repositories.otps,
                keys.otpKeys(),
                base.messaging.codeMail,
                base.messaging.sms,
                sessions.sessions(),
                repositories.organizations,
                new RateLimiter(otpLimits.initsPerContact(), otpLimits.rateWindow(), base.clock),
                new RateLimiter(otpLimits.initsPerAddress(), otpLimits.rateWindow(), base.clock),
                base.random,
                sessions.bundleKeys());
        oauth2 = new Oauth2Feature(
                base.transactor,
                repositories.oauth2Credentials,
                config.oauth2Providers(),
                keys.oauth2Secrets,
                base.oauth2Tokens);
        oauthLogin = new OauthLoginFeature(
                base.oidc, repositories.oauthProviders, sessions.sessions(), sessions.bundleKeys());
        authProxy = new AuthProxyFeature(
                base.transactor,
                repositories.authProxyConfigs,
                otp.service(),
                base.messaging.codeMail,
                organizations.subOrganizations(),
                repositories.stateVersions,
                oauth2.authenticator(),
                oauthLogin.login(),
                new RateLimiter(otpLimits.initsPerAddress(), otpLimits.rateWindow(), base.clock, "sign-in requests"),
                new AuthProxyFeature.SignUpCredentials(
                        base.passkeys, base.oidc, repositories.callers, wallets.creator()),
                credentialOwners(repositories.callers),
                otpLimits
                        .captcha()
                        .map(c -> CaptchaVerifier.turnstile(c.verifyUrl(), c.siteKey(), c.secret()))
                        .orElse(CaptchaVerifier.NONE),
                base.clock,
                base.ids);
    }

    /**
     * Every activity Keyhaven runs, in the order the routes (and the documents generated from them) list them: the
     * order they were added to Keyhaven in, kept so that the generated documents do not reorder.
     */
    List<ActivityHandler<?>> handlers() {
        List<ActivityHandler<?>> handlers = new ArrayList<>();
        handlers.addAll(users.handlers());
        handlers.addAll(organizations.handlers());
        handlers.addAll(wallets.handlers());
        handlers.addAll(privateKeys.handlers());
        handlers.addAll(signing.handlers());
        handlers.addAll(policies.handlers());
        handlers.addAll(tvc.handlers());
        handlers.add(VoteHandler.approve());
        handlers.add(VoteHandler.reject());
        handlers.addAll(exports.handlers());
        handlers.addAll(imports.handlers());
        handlers.addAll(recovery.handlers());
        handlers.addAll(webhooks.handlers());
        handlers.addAll(otp.handlers());
        handlers.addAll(authProxy.handlers());
        handlers.addAll(sessions.handlers());
        handlers.addAll(oauth2.handlers());
        handlers.addAll(contractInterfaces.handlers());
        handlers.addAll(users.oauthProviderHandlers());
        handlers.addAll(oauthLogin.handlers());
        return List.copyOf(handlers);
    }

    /**
     * {@code /v1/account}'s credential lookups, through the directory that resolves stamps: the organization's own
     * users first, then its direct sub-organizations'.
     */
    private static CredentialOwners credentialOwners(CallerDirectory callers) {
        return (tx, organizationId, kind, key) -> {
            VerifiedStamp.Kind stampKind = switch (kind) {
                case API_KEY -> VerifiedStamp.Kind.API_KEY;
                case PASSKEY -> VerifiedStamp.Kind.WEBAUTHN;
            };
            return callers.credential(tx, organizationId, stampKind, key)
                    .or(() -> callers.credentialInSubOrganizations(tx, organizationId, stampKind, key).stream()
                            .findFirst())
                    .map(CallerDirectory.CredentialMatch::organizationId);
        };
    }
}
