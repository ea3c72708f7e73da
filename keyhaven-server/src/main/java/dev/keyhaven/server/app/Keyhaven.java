package dev.keyhaven.server.app;

import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityQueries;
import dev.keyhaven.server.activity.ActivityRegistry;
import dev.keyhaven.server.activity.ActivityRenderer;
import dev.keyhaven.server.activity.ActivityService;
import dev.keyhaven.server.activity.VoteHandler;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.api.JsonMappers;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.api.TimeOrderedIds;
import dev.keyhaven.server.api.WireTime;
import dev.keyhaven.server.auth.ApiKeyStampVerifier;
import dev.keyhaven.server.auth.AttestedStampVerifier;
import dev.keyhaven.server.auth.CallerResolver;
import dev.keyhaven.server.auth.RequestAuthenticator;
import dev.keyhaven.server.authproxy.AuthProxy;
import dev.keyhaven.server.authproxy.AuthProxyConfig;
import dev.keyhaven.server.authproxy.AuthProxyConfigs;
import dev.keyhaven.server.authproxy.UpdateAuthProxyConfigHandler;
import dev.keyhaven.server.custody.BundleSigner;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.custody.EphemeralKey;
import dev.keyhaven.server.custody.KeySealer;
import dev.keyhaven.server.custody.KeyTransfer;
import dev.keyhaven.server.custody.MasterKey;
import dev.keyhaven.server.custody.MasterKeyGuard;
import dev.keyhaven.server.custody.Oauth2ClientSecrets;
import dev.keyhaven.server.custody.OidcTokenSigner;
import dev.keyhaven.server.custody.OtpKeys;
import dev.keyhaven.server.custody.ServerIdentity;
import dev.keyhaven.server.export.ExportHandler;
import dev.keyhaven.server.http.ApiServer;
import dev.keyhaven.server.http.AuthProxyServer;
import dev.keyhaven.server.http.ConnectionLimits;
import dev.keyhaven.server.http.HttpMetrics;
import dev.keyhaven.server.http.Readiness;
import dev.keyhaven.server.keyimport.ImportKind;
import dev.keyhaven.server.keyimport.ImportPrivateKeyHandler;
import dev.keyhaven.server.keyimport.ImportTargets;
import dev.keyhaven.server.keyimport.ImportWalletHandler;
import dev.keyhaven.server.keyimport.InitImportHandler;
import dev.keyhaven.server.mail.MaildirMailer;
import dev.keyhaven.server.mail.Mailer;
import dev.keyhaven.server.mail.SmtpMailer;
import dev.keyhaven.server.oauth2.CreateOauth2CredentialHandler;
import dev.keyhaven.server.oauth2.DeleteOauth2CredentialHandler;
import dev.keyhaven.server.oauth2.Oauth2AuthenticateHandler;
import dev.keyhaven.server.oauth2.Oauth2Authenticator;
import dev.keyhaven.server.oauth2.Oauth2CredentialQueries;
import dev.keyhaven.server.oauth2.Oauth2Exchange;
import dev.keyhaven.server.oauth2.Oauth2TokenIssuer;
import dev.keyhaven.server.oauth2.UpdateOauth2CredentialHandler;
import dev.keyhaven.server.oauthlogin.OauthLogin;
import dev.keyhaven.server.oauthlogin.OauthLoginHandler;
import dev.keyhaven.server.oidc.OidcVerifier;
import dev.keyhaven.server.oidc.TrustedIssuer;
import dev.keyhaven.server.organization.CreateSubOrganizationHandler;
import dev.keyhaven.server.organization.OrganizationQueries;
import dev.keyhaven.server.organization.RootOrganizationSetup;
import dev.keyhaven.server.organization.SubOrganizationCreator;
import dev.keyhaven.server.organization.UpdateOrganizationNameHandler;
import dev.keyhaven.server.organization.UpdateRootQuorumHandler;
import dev.keyhaven.server.otp.InitOtpHandler;
import dev.keyhaven.server.otp.OtpLoginHandler;
import dev.keyhaven.server.otp.OtpService;
import dev.keyhaven.server.otp.RateLimiter;
import dev.keyhaven.server.otp.VerifyOtpHandler;
import dev.keyhaven.server.policy.CreatePoliciesHandler;
import dev.keyhaven.server.policy.CreatePolicyHandler;
import dev.keyhaven.server.policy.DeletePoliciesHandler;
import dev.keyhaven.server.policy.PolicyAuthorizer;
import dev.keyhaven.server.policy.PolicyQueries;
import dev.keyhaven.server.policy.UpdatePolicyHandler;
import dev.keyhaven.server.privatekey.CreatePrivateKeyTagHandler;
import dev.keyhaven.server.privatekey.CreatePrivateKeysHandler;
import dev.keyhaven.server.privatekey.DeletePrivateKeyTagsHandler;
import dev.keyhaven.server.privatekey.DeletePrivateKeysHandler;
import dev.keyhaven.server.privatekey.PrivateKeyCreator;
import dev.keyhaven.server.privatekey.PrivateKeyQueries;
import dev.keyhaven.server.privatekey.PrivateKeyTags;
import dev.keyhaven.server.privatekey.UpdatePrivateKeyTagHandler;
import dev.keyhaven.server.proof.ProofService;
import dev.keyhaven.server.recovery.CodeMail;
import dev.keyhaven.server.recovery.InitUserEmailRecoveryHandler;
import dev.keyhaven.server.recovery.RecoverUserHandler;
import dev.keyhaven.server.session.CreateReadOnlySessionHandler;
import dev.keyhaven.server.session.CreateReadWriteSessionHandler;
import dev.keyhaven.server.session.ReadOnlySessions;
import dev.keyhaven.server.session.Sessions;
import dev.keyhaven.server.session.StampLoginHandler;
import dev.keyhaven.server.signing.SignRawPayloadHandler;
import dev.keyhaven.server.signing.SignRawPayloadsHandler;
import dev.keyhaven.server.signing.SignTransactionHandler;
import dev.keyhaven.server.signing.SigningKeys;
import dev.keyhaven.server.smartcontract.ContractInterfaces;
import dev.keyhaven.server.smartcontract.CreateSmartContractInterfaceHandler;
import dev.keyhaven.server.smartcontract.DeleteSmartContractInterfaceHandler;
import dev.keyhaven.server.smartcontract.SmartContractInterfaceQueries;
import dev.keyhaven.server.sms.FileSms;
import dev.keyhaven.server.sms.SmsSender;
import dev.keyhaven.server.sms.TwilioSms;
import dev.keyhaven.server.state.OrganizationStates;
import dev.keyhaven.server.store.Database;
import dev.keyhaven.server.store.JdbcActivityRepository;
import dev.keyhaven.server.store.JdbcAuthProxyConfigRepository;
import dev.keyhaven.server.store.JdbcCallerDirectory;
import dev.keyhaven.server.store.JdbcCustodyRepository;
import dev.keyhaven.server.store.JdbcImportTargetRepository;
import dev.keyhaven.server.store.JdbcOauth2CredentialRepository;
import dev.keyhaven.server.store.JdbcOauthProviderRepository;
import dev.keyhaven.server.store.JdbcOrganizationRepository;
import dev.keyhaven.server.store.JdbcOtpRepository;
import dev.keyhaven.server.store.JdbcPasskeyRepository;
import dev.keyhaven.server.store.JdbcPolicyRepository;
import dev.keyhaven.server.store.JdbcPrivateKeyRepository;
import dev.keyhaven.server.store.JdbcProofRepository;
import dev.keyhaven.server.store.JdbcRecoveryCredentialRepository;
import dev.keyhaven.server.store.JdbcSmartContractInterfaceRepository;
import dev.keyhaven.server.store.JdbcStateVersions;
import dev.keyhaven.server.store.JdbcTvcRepository;
import dev.keyhaven.server.store.JdbcUserRepository;
import dev.keyhaven.server.store.JdbcWalletRepository;
import dev.keyhaven.server.store.JdbcWebhookRepository;
import dev.keyhaven.server.tvc.CreateTvcAppHandler;
import dev.keyhaven.server.tvc.CreateTvcDeploymentHandler;
import dev.keyhaven.server.tvc.CreateTvcManifestApprovalsHandler;
import dev.keyhaven.server.tvc.CreateTvcOperatorHandler;
import dev.keyhaven.server.tvc.TvcOperators;
import dev.keyhaven.server.tvc.TvcQueries;
import dev.keyhaven.server.user.CreateApiKeysHandler;
import dev.keyhaven.server.user.CreateAuthenticatorsHandler;
import dev.keyhaven.server.user.CreateOauthProvidersHandler;
import dev.keyhaven.server.user.CreateUserTagHandler;
import dev.keyhaven.server.user.CreateUsersHandler;
import dev.keyhaven.server.user.Credentials;
import dev.keyhaven.server.user.DeleteApiKeysHandler;
import dev.keyhaven.server.user.DeleteAuthenticatorsHandler;
import dev.keyhaven.server.user.DeleteOauthProvidersHandler;
import dev.keyhaven.server.user.DeleteUserTagsHandler;
import dev.keyhaven.server.user.DeleteUsersHandler;
import dev.keyhaven.server.user.OauthProviders;
import dev.keyhaven.server.user.UpdateUserFieldHandler;
import dev.keyhaven.server.user.UpdateUserHandler;
import dev.keyhaven.server.user.UpdateUserTagHandler;
import dev.keyhaven.server.user.UserCreator;
import dev.keyhaven.server.user.UserQueries;
import dev.keyhaven.server.user.UserSnapshots;
import dev.keyhaven.server.user.UserUpdater;
import dev.keyhaven.server.wallet.AccountCreator;
import dev.keyhaven.server.wallet.CreateWalletAccountsHandler;
import dev.keyhaven.server.wallet.CreateWalletHandler;
import dev.keyhaven.server.wallet.DeleteWalletAccountsHandler;
import dev.keyhaven.server.wallet.DeleteWalletsHandler;
import dev.keyhaven.server.wallet.UpdateWalletHandler;
import dev.keyhaven.server.wallet.WalletCreator;
import dev.keyhaven.server.wallet.WalletQueries;
import dev.keyhaven.server.webauthn.AllowedOrigins;
import dev.keyhaven.server.webauthn.PasskeyRegistrar;
import dev.keyhaven.server.webauthn.PasskeyStampVerifier;
import dev.keyhaven.server.webhook.CreateWebhookEndpointHandler;
import dev.keyhaven.server.webhook.DeleteWebhookEndpointHandler;
import dev.keyhaven.server.webhook.RedeliverWebhookDeliveryHandler;
import dev.keyhaven.server.webhook.UpdateWebhookEndpointHandler;
import dev.keyhaven.server.webhook.WebhookDeliverer;
import dev.keyhaven.server.webhook.WebhookOutbox;
import dev.keyhaven.server.webhook.WebhookQueries;
import dev.keyhaven.server.webhook.WebhookSigningKeys;
import dev.keyhaven.server.webhook.WebhookUrls;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import tools.jackson.databind.ObjectMapper;

/**
 * The wiring: constructs every service once, in dependency order, from the configuration and an open database.
 * This is the only class that names concrete implementations.
 */
public final class Keyhaven implements AutoCloseable {
    /** Organizations whose state (credentials, voters, quorum, signing keys) is remembered between requests. */
    private static final int REMEMBERED_ORGANIZATIONS = 10_000;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Keyhaven.class);

    private final KeyhavenConfig config;
    private final Database database;
    private final RootOrganizationSetup rootSetup;
    private final ApiServer.Services services;
    private final BundleSigner bundleSigner;
    private final WebhookSigningKeys webhookKeys;
    private final WebhookDeliverer webhookDeliverer;
    private final Otp otp;
    private ApiServer server;
    private AuthProxyServer authProxyServer;
    private final Oauth2TokenIssuer oauth2Tokens;
    private boolean closed;

    private Keyhaven(KeyhavenConfig config, Database database, RootOrganizationSetup rootSetup,
            ApiServer.Services services, BundleSigner bundleSigner, WebhookSigningKeys webhookKeys,
            WebhookDeliverer webhookDeliverer, Otp otp, Oauth2TokenIssuer oauth2Tokens) {
        this.config = config;
        this.database = database;
        this.rootSetup = rootSetup;
        this.services = services;
        this.bundleSigner = bundleSigner;
        this.webhookKeys = webhookKeys;
        this.webhookDeliverer = webhookDeliverer;
        this.otp = otp;
        this.oauth2Tokens = oauth2Tokens;
    }

    /** The OTP side of the wiring: its signers and services, closed with the application. */
    private record Otp(BundleSigner otpSigner, BundleSigner sessionSigner, OtpService service,
            AuthProxyConfigs configs, AuthProxy proxy) implements AutoCloseable {
        @Override
        public void close() {
            service.close();
            otpSigner.close();
            sessionSigner.close();
        }
    }

    private static SmsSender smsSender(KeyhavenConfig config, Clock clock) {
        OtpSettings.Sms sms = config.otp().sms();
        return switch (sms.provider()) {
            case NONE -> SmsSender.NONE;
            case FILE -> new FileSms(config.smsFile(), clock);
            case TWILIO -> {
                String token;
                try {
                    token = Files.readString(sms.twilioTokenFile().orElseThrow()).strip();
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read the Twilio token file", e);
                }
                yield new TwilioSms(sms.twilioBaseUrl(), sms.twilioAccount(), token, sms.from());
            }
        };
    }

    /** Opens (and migrates) the database and builds every service; nothing listens yet. */
    public static Keyhaven open(KeyhavenConfig config, Clock clock) {
        PrometheusMeterRegistry metricsRegistry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(metricsRegistry);
        new JvmThreadMetrics().bindTo(metricsRegistry);
        Database database = Database.open(config.effectiveDatabaseUrl(), config.databasePoolSize(), metricsRegistry);
        try {
            return wire(config, clock, database, metricsRegistry);
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
    }

    private static Keyhaven wire(KeyhavenConfig config, Clock clock, Database database,
            PrometheusMeterRegistry metricsRegistry) {
        ObjectMapper json = JsonMappers.strict();
        SecureRandom random = new SecureRandom();
        Ids ids = new TimeOrderedIds(clock, random);
        var transactor = database.transactor();

        var organizations = new JdbcOrganizationRepository();
        var users = new JdbcUserRepository();
        var activityRepository = new JdbcActivityRepository(json);
        AllowedOrigins webAuthnOrigins = AllowedOrigins.of(config.webAuthnOrigins());
        PasskeyRegistrar passkeyRegistrar = new PasskeyRegistrar(webAuthnOrigins);

        var custodyRepository = new JdbcCustodyRepository();
        MasterKey masterKey = new MasterKeyGuard(transactor, custodyRepository, random, clock)
                .open(config.effectiveMasterKeyFile(), config.masterKeyFile().isPresent());
        KeySealer sealer = new KeySealer(masterKey, random);
        Custody custody = new Custody(sealer, random);
        BundleSigner bundleSigner = BundleSigner.load(transactor, custodyRepository, sealer, random, clock);
        KeyTransfer keyTransfer = new KeyTransfer(sealer, bundleSigner, random);
        var wallets = new JdbcWalletRepository();
        var privateKeys = new JdbcPrivateKeyRepository();
        var policies = new JdbcPolicyRepository();
        var tvc = new JdbcTvcRepository();
        TvcOperators tvcOperators = new TvcOperators(tvc);
        AccountCreator accountCreator = new AccountCreator(wallets);
        WalletCreator walletCreator = new WalletCreator(wallets, accountCreator, custody);
        SigningKeys signingKeys = new SigningKeys(wallets, privateKeys);
        var webhooks = new JdbcWebhookRepository(json);
        WebhookUrls webhookUrls = new WebhookUrls(config.webhooks().allowInsecureUrls());
        WebhookSigningKeys webhookKeys = new WebhookSigningKeys(transactor, webhooks, custody, config.webhooks(),
                clock, ids);
        WebhookDeliverer deliverer = new WebhookDeliverer(transactor, webhooks, webhookKeys, webhookUrls,
                config.webhooks(), clock, random);

        Credentials credentials = new Credentials(users, config.limits());
        // The configured issuers, and Keyhaven itself for the tokens oauth2_authenticate mints (any audience).
        Oauth2TokenIssuer oauth2Tokens = new Oauth2TokenIssuer(OidcTokenSigner.load(transactor, custodyRepository,
                sealer, random, clock), config.oauth2Providers(), clock);
        List<TrustedIssuer> trustedIssuers = new ArrayList<>(TrustedIssuer.of(config.oidcIssuers()));
        for (String issuer : oauth2Tokens.issuers()) {
            if (trustedIssuers.stream().anyMatch(configured -> configured.issuer().equals(issuer))) {
                throw new IllegalArgumentException("OIDC issuer " + issuer + " is in --oidc-issuers, but Keyhaven "
                        + "mints that issuer's tokens for oauth2_authenticate; give the provider another issuer in "
                        + "--oauth2-providers");
            }
            trustedIssuers.add(TrustedIssuer.inProcess(issuer, oauth2Tokens.publicJwks()));
        }
        OidcVerifier oidc = new OidcVerifier(trustedIssuers, clock);
        LOG.info("trusted OIDC issuers: {}", oidc.issuers().isEmpty() ? "none" : oidc.issuers());
        var oauthProviderRepository = new JdbcOauthProviderRepository();
        OauthProviders oauthProviders = new OauthProviders(users, oauthProviderRepository);
        UserCreator userCreator = new UserCreator(users, credentials, config.limits(), oauthProviders);
        UserUpdater userUpdater = new UserUpdater(users);
        Mailer mailer = config.mail().smtp().<Mailer>map(SmtpMailer::new)
                .orElseGet(() -> new MaildirMailer(config.maildir()));
        LOG.info("mail (email recovery) goes to {}", mailer.describe());
        var recoveryCredentials = new JdbcRecoveryCredentialRepository();
        ImportTargets importTargets = new ImportTargets(new JdbcImportTargetRepository(), users, keyTransfer);
        BundleSigner otpSigner = BundleSigner.load(BundleSigner.Role.OTP, transactor, custodyRepository, sealer, random,
                clock);
        BundleSigner sessionSigner = BundleSigner.load(BundleSigner.Role.SESSION, transactor, custodyRepository, sealer,
                random, clock);
        CodeMail codeMail = new CodeMail(mailer, config.mail().defaultFrom(),
                Optional.of(config.effectiveTemplatesDirectory()));
        SmsSender sms = smsSender(config, clock);
        LOG.info("SMS codes go to {}", sms.describe());
        OtpSettings otpSettings = config.otp();
        Sessions sessions = new Sessions(users, credentials, sessionSigner);
        ReadOnlySessions readOnlySessions = new ReadOnlySessions(transactor, users, organizations, sessionSigner,
                clock);
        OtpService otpService = new OtpService(new JdbcOtpRepository(), new OtpKeys(sealer, otpSigner, random),
                codeMail, sms, sessions, organizations,
                new RateLimiter(otpSettings.initsPerContact(), otpSettings.rateWindow(), clock),
                new RateLimiter(otpSettings.initsPerAddress(), otpSettings.rateWindow(), clock), transactor, random);
        AuthProxyConfigs authProxyConfigs = new AuthProxyConfigs(transactor, new JdbcAuthProxyConfigRepository());
        var oauth2Credentials = new JdbcOauth2CredentialRepository();
        var contractInterfaceRepository = new JdbcSmartContractInterfaceRepository();
        var contractInterfaceQueries = new SmartContractInterfaceQueries(transactor, contractInterfaceRepository);
        Oauth2ClientSecrets oauth2Secrets = Oauth2ClientSecrets.load(transactor, custodyRepository, sealer, random,
                clock);
        Oauth2Authenticator oauth2Authenticator = new Oauth2Authenticator(config.oauth2Providers(), oauth2Secrets,
                new Oauth2Exchange(), oauth2Tokens, transactor, oauth2Credentials);
        OauthLogin oauthLogin = new OauthLogin(oidc, oauthProviderRepository, sessions);
        List<ActivityHandler<?>> handlers = List.of(
                new CreateUsersHandler(userCreator, passkeyRegistrar, oidc),
                new DeleteUsersHandler(users),
                new CreateApiKeysHandler(users, credentials),
                new DeleteApiKeysHandler(users),
                new CreateAuthenticatorsHandler(users, credentials, passkeyRegistrar),
                new DeleteAuthenticatorsHandler(users),
                new UpdateUserHandler(userUpdater),
                new UpdateUserFieldHandler(userUpdater, UpdateUserFieldHandler.Field.NAME),
                new UpdateUserFieldHandler(userUpdater, UpdateUserFieldHandler.Field.EMAIL),
                new UpdateUserFieldHandler(userUpdater, UpdateUserFieldHandler.Field.PHONE_NUMBER),
                new CreateUserTagHandler(users, config.limits()),
                new UpdateUserTagHandler(users),
                new DeleteUserTagsHandler(users),
                new CreateSubOrganizationHandler(organizations, userCreator, passkeyRegistrar, walletCreator, oidc),
                new UpdateRootQuorumHandler(organizations, users),
                new UpdateOrganizationNameHandler(organizations),
                new CreateWalletHandler(walletCreator),
                new CreateWalletAccountsHandler(wallets, accountCreator, custody),
                new UpdateWalletHandler(wallets),
                new DeleteWalletsHandler(wallets),
                new DeleteWalletAccountsHandler(wallets),
                new CreatePrivateKeysHandler(privateKeys, new PrivateKeyTags(users), custody),
                new DeletePrivateKeysHandler(privateKeys),
                new CreatePrivateKeyTagHandler(users, privateKeys, config.limits()),
                new UpdatePrivateKeyTagHandler(users, privateKeys),
                new DeletePrivateKeyTagsHandler(users, privateKeys),
                new SignRawPayloadHandler(signingKeys, custody),
                new SignRawPayloadsHandler(signingKeys, custody),
                new SignTransactionHandler(signingKeys, custody, new ContractInterfaces(contractInterfaceRepository)),
                new CreatePolicyHandler(policies),
                new CreatePoliciesHandler(policies),
                new UpdatePolicyHandler(policies),
                DeletePoliciesHandler.single(policies),
                DeletePoliciesHandler.batch(policies),
                new CreateTvcOperatorHandler(tvcOperators),
                new CreateTvcAppHandler(tvc, tvcOperators),
                new CreateTvcDeploymentHandler(tvc, json),
                new CreateTvcManifestApprovalsHandler(tvc),
                VoteHandler.approve(),
                VoteHandler.reject(),
                ExportHandler.wallet(wallets, keyTransfer),
                ExportHandler.walletAccount(wallets, keyTransfer),
                ExportHandler.privateKey(privateKeys, keyTransfer),
                new InitImportHandler(importTargets, ImportKind.WALLET),
                new ImportWalletHandler(importTargets, walletCreator),
                new InitImportHandler(importTargets, ImportKind.PRIVATE_KEY),
                new ImportPrivateKeyHandler(importTargets, new PrivateKeyCreator(privateKeys)),
                new InitUserEmailRecoveryHandler(users, recoveryCredentials, keyTransfer, mailer,
                        config.mail().defaultFrom(), Optional.of(config.effectiveTemplatesDirectory())),
                new RecoverUserHandler(credentials, recoveryCredentials, passkeyRegistrar),
                new CreateWebhookEndpointHandler(webhooks, webhookUrls),
                new UpdateWebhookEndpointHandler(webhooks, webhookUrls),
                new DeleteWebhookEndpointHandler(webhooks),
                new RedeliverWebhookDeliveryHandler(webhooks, deliverer::wake),
                new InitOtpHandler(otpService, codeMail),
                new VerifyOtpHandler(otpService),
                new OtpLoginHandler(otpService),
                new UpdateAuthProxyConfigHandler(authProxyConfigs),
                new StampLoginHandler(sessions),
                new CreateReadWriteSessionHandler(sessions, keyTransfer, organizations),
                new CreateReadOnlySessionHandler(readOnlySessions, organizations),
                new CreateOauth2CredentialHandler(oauth2Credentials, oauth2Secrets),
                new UpdateOauth2CredentialHandler(oauth2Credentials, oauth2Secrets),
                new DeleteOauth2CredentialHandler(oauth2Credentials),
                new Oauth2AuthenticateHandler(oauth2Credentials, oauth2Authenticator),
                new CreateSmartContractInterfaceHandler(contractInterfaceRepository),
                new DeleteSmartContractInterfaceHandler(contractInterfaceRepository),
                new CreateOauthProvidersHandler(users, oauthProviders, oidc),
                new DeleteOauthProvidersHandler(oauthProviders),
                new OauthLoginHandler(oauthLogin));
        ActivityRegistry registry = new ActivityRegistry(handlers);

        UserQueries userQueries = new UserQueries(transactor, users, oauthProviderRepository);
        WalletQueries walletQueries = new WalletQueries(transactor, wallets, json);
        PrivateKeyQueries privateKeyQueries = new PrivateKeyQueries(transactor, privateKeys, users);
        ActivityRenderer renderer = new ActivityRenderer(json, config.activityTimestamps(), clock);
        HttpMetrics metrics = new HttpMetrics(metricsRegistry);
        OrganizationStates states = new OrganizationStates(transactor, new JdbcStateVersions(),
                REMEMBERED_ORGANIZATIONS);
        UserSnapshots voters = new UserSnapshots(userQueries, json);
        var proofRepository = new JdbcProofRepository();
        ProofService proofs = ProofService.start(transactor, proofRepository, activityRepository, renderer,
                ServerIdentity.open(transactor, proofRepository, sealer, random, clock), EphemeralKey.generate(random),
                Main.buildVersion(), WireTime.truncate(clock.instant()), json);
        ActivityService activities = new ActivityService(transactor, states, activityRepository, registry,
                new PolicyAuthorizer(organizations, policies, voters), voters, metrics,
                new WebhookOutbox(transactor, states, webhooks, renderer, json, clock, ids, deliverer::wake), json,
                clock, ids, proofs);
        ApiKeyStampVerifier apiKeyStamps = new ApiKeyStampVerifier(json, 10_000);
        RequestAuthenticator authenticator = new RequestAuthenticator(apiKeyStamps,
                new PasskeyStampVerifier(transactor, new JdbcPasskeyRepository(), webAuthnOrigins, json),
                new AttestedStampVerifier(apiKeyStamps, oidc, otpService, json, clock));
        CallerResolver callers = new CallerResolver(transactor, new JdbcCallerDirectory(), clock);

        ApiServer.Services services = new ApiServer.Services(authenticator, callers, activities, states, renderer,
                registry,
                new ActivityQueries(transactor, activityRepository, renderer, json),
                new OrganizationQueries(transactor, organizations, users, walletQueries, privateKeyQueries,
                        oauthProviderRepository, contractInterfaceQueries),
                userQueries, walletQueries, privateKeyQueries, new PolicyQueries(transactor, policies), json, metrics,
                metricsRegistry, bundleSigner.publicKeyHex(), proofs, new TvcQueries(transactor, tvc, json),
                new WebhookQueries(transactor, webhooks, webhookKeys), Map.of(
                        ApiServer.OTP_SIGNER_DISCOVERY_PATH, otpSigner.publicKeyHex(),
                        ApiServer.SESSION_SIGNER_DISCOVERY_PATH, sessionSigner.publicKeyHex(),
                        ApiServer.OAUTH2_ENCRYPTION_KEY_DISCOVERY_PATH, oauth2Secrets.encryptionPublicKey()),
                readOnlySessions, new Oauth2CredentialQueries(transactor, oauth2Credentials),
                contractInterfaceQueries, new Readiness(database::answers), Main.buildVersion());
        RootOrganizationSetup rootSetup = new RootOrganizationSetup(transactor, organizations, users, userCreator,
                clock, ids);
        AuthProxy authProxy = new AuthProxy(authProxyConfigs, otpService, codeMail,
                new SubOrganizationCreator(organizations, userCreator), transactor, new JdbcStateVersions(), clock,
                ids, oauth2Authenticator, oauthLogin,
                new RateLimiter(otpSettings.initsPerAddress(), otpSettings.rateWindow(), clock, "sign-in requests"));
        Otp otp = new Otp(otpSigner, sessionSigner, otpService, authProxyConfigs, authProxy);
        return new Keyhaven(config, database, rootSetup, services, bundleSigner, webhookKeys, deliverer, otp,
                oauth2Tokens);
    }

    /** Keyhaven's long-term public key (hex), which signs boot proofs: what app-proof verifiers pin. */
    public String identityPublicKey() {
        return services.proofQueries().identityPublicKey();
    }

    public RootOrganizationSetup rootSetup() {
        return rootSetup;
    }

    /** The bundle signer's public key (hex, uncompressed): what clients pin to trust export and import bundles. */
    public String bundleSignerPublicKey() {
        return bundleSigner.publicKeyHex();
    }

    /**
     * The issuer of the OIDC tokens {@code oauth2_authenticate} mints: its issuers and public JWKS are what Keyhaven's
     * OIDC verification trusts for {@code oauth_login}.
     */
    public Oauth2TokenIssuer oauth2Tokens() {
        return oauth2Tokens;
    }

    /** The keys that sign webhook deliveries (rotation). */
    public WebhookSigningKeys webhookKeys() {
        return webhookKeys;
    }

    /**
     * Starts the API listener, the webhook deliverer, and the auth proxy's listener when it has a port.
     *
     * @throws dev.keyhaven.server.http.ListenerStartException when an address cannot be listened on
     */
    public ApiServer serve() {
        ConnectionLimits connections = ConnectionBudget.resolve(config);
        server = ApiServer.start(new ApiServer.Settings(config.host(), config.port(), config.maxBodyBytes(),
                config.corsOrigins(), config.shutdownGrace(), connections), services);
        webhookDeliverer.start();
        config.otp().authProxyPort().ifPresent(port -> authProxyServer = AuthProxyServer.start(
                new AuthProxyServer.Settings(config.host(), port, config.maxBodyBytes(), config.shutdownGrace(),
                        connections), otp.proxy(), services.json(), services.metrics(), services.readiness()));
        return server;
    }

    /** The auth proxy's listener, when {@link #serve} started one. */
    public Optional<AuthProxyServer> authProxyServer() {
        return Optional.ofNullable(authProxyServer);
    }

    /** Every auth-proxy configuration (id and organization), for the start-up announcement. */
    public List<AuthProxyConfig> authProxyConfigs() {
        return otp.configs().all();
    }

    /** Creates the default auth-proxy configuration of {@code organizationId} (what {@code init} does). */
    public String createDefaultAuthProxyConfig(String organizationId) {
        return database.transactor().write(tx -> otp.configs().createDefault(tx,
                UUID.randomUUID().toString(), organizationId, Instant.now())).id();
    }

    /**
     * Creates a configuration for {@code organizationId} (no {@code configId}) or changes one, with the fields
     * {@code changes} names (the {@code update_auth_proxy_config} rules); what the CLI does.
     */
    public AuthProxyConfig saveAuthProxyConfig(Optional<String> configId,
            String organizationId, Params changes) {
        return database.transactor().write(tx -> otp.configs().save(tx, configId, organizationId, changes,
                Instant.now(), UUID.randomUUID()::toString));
    }

    /** The OTP signer's and the session signer's public keys (hex, uncompressed). */
    public String otpSignerPublicKey() {
        return otp.otpSigner().publicKeyHex();
    }

    public String sessionSignerPublicKey() {
        return otp.sessionSigner().publicKeyHex();
    }

    /**
     * Stops the listener and waits for in-flight requests to finish (up to the shutdown grace period), and only then
     * closes the database, so no request still running finds its connection pool gone. Safe to call more than once
     * and from several threads: a later call returns when the first has finished.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (authProxyServer != null) {
                authProxyServer.close();
            }
            if (server != null) {
                server.close();
            }
            webhookDeliverer.close();
        } finally {
            otp.close();
            bundleSigner.close();
            services.proofQueries().close();
            database.close();
        }
    }
}
