package dev.keyhaven.server.app;

import dev.keyhaven.server.activity.ActivityQueries;
import dev.keyhaven.server.activity.ActivityRegistry;
import dev.keyhaven.server.activity.ActivityRenderer;
import dev.keyhaven.server.activity.ActivityReplay;
import dev.keyhaven.server.activity.ActivityService;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.api.WireTime;
import dev.keyhaven.server.audit.AuditExport;
import dev.keyhaven.server.audit.AuditHeadSigner;
import dev.keyhaven.server.audit.AuditQueries;
import dev.keyhaven.server.audit.AuditVerification;
import dev.keyhaven.server.auth.ApiKeyStampVerifier;
import dev.keyhaven.server.auth.AttestedStampVerifier;
import dev.keyhaven.server.auth.CallerResolver;
import dev.keyhaven.server.auth.RequestAuthenticator;
import dev.keyhaven.server.authproxy.AuthProxyConfig;
import dev.keyhaven.server.custody.EphemeralKey;
import dev.keyhaven.server.custody.Kek;
import dev.keyhaven.server.custody.KekRotation;
import dev.keyhaven.server.custody.ServerIdentity;
import dev.keyhaven.server.http.ApiServer;
import dev.keyhaven.server.http.AuthProxyServer;
import dev.keyhaven.server.http.ConnectionLimits;
import dev.keyhaven.server.http.HttpMetrics;
import dev.keyhaven.server.http.Readiness;
import dev.keyhaven.server.oauth2.Oauth2TokenIssuer;
import dev.keyhaven.server.organization.RootOrganizationSetup;
import dev.keyhaven.server.policy.DryRunPoliciesQuery;
import dev.keyhaven.server.proof.ProofService;
import dev.keyhaven.server.state.OrganizationStates;
import dev.keyhaven.server.store.Database;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.webauthn.PasskeyStampVerifier;
import dev.keyhaven.server.webhook.WebhookSigningKeys;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.ObjectMapper;

/**
 * The wiring: opens the database and assembles Keyhaven from it, in three steps that {@link #wire} names: the
 * {@link Foundation} (clock, ids, JSON, repositories, Keyhaven's own keys, messaging, verifiers), the
 * {@link Features} (each feature's own class builds its handlers and queries), and the activity engine and read side
 * the API listener dispatches to. Only the app package names concrete implementations ({@link Repositories}).
 */
public final class Keyhaven implements AutoCloseable {
    /** Organizations whose state (credentials, voters, quorum, signing keys) is remembered between requests. */
    private static final int REMEMBERED_ORGANIZATIONS = 10_000;
    /** Decoded API public keys kept, so a key's point is decoded once and not per request. */
    private static final int REMEMBERED_API_KEYS = 10_000;

    private final Foundation base;
    private final Database database;
    private final Features features;
    private final ApiServer.Services services;
    private final AuditHeadSigner auditHeads;
    private ApiServer server;
    private AuthProxyServer authProxyServer;
    private boolean closed;

    private Keyhaven(
            Foundation base,
            Database database,
            Features features,
            ApiServer.Services services,
            AuditHeadSigner auditHeads) {
        this.base = base;
        this.auditHeads = auditHeads;
        this.database = database;
        this.features = features;
        this.services = services;
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

    private static Keyhaven wire(
            KeyhavenConfig config, Clock clock, Database database, PrometheusMeterRegistry metricsRegistry) {
        Foundation base = new Foundation(config, clock, database);
        Features features = new Features(base);
        ActivityRegistry registry = new ActivityRegistry(features.handlers());
        ApiServer.Services services = apiServices(
                base,
                features,
                registry,
                new HttpMetrics(metricsRegistry),
                metricsRegistry,
                new Readiness(database::answers));
        AuditHeadSigner auditHeads = new AuditHeadSigner(
                base.transactor,
                base.repositories.audit,
                ServerIdentity.open(base.transactor, base.repositories.proofs, base.keys.sealer, base.random, clock),
                clock);
        return new Keyhaven(base, database, features, services, auditHeads);
    }

    /**
     * The activity engine (remembered organization state, policies, webhooks, app proofs), request authentication,
     * and every query, as the API listener dispatches to them.
     */
    private static ApiServer.Services apiServices(
            Foundation base,
            Features features,
            ActivityRegistry registry,
            HttpMetrics metrics,
            PrometheusMeterRegistry metricsRegistry,
            Readiness readiness) {
        Transactor transactor = base.transactor;
        ObjectMapper json = base.json;
        Clock clock = base.clock;
        Repositories repositories = base.repositories;
        ServerKeys keys = base.keys;

        ActivityRenderer renderer = new ActivityRenderer(json, base.config.activityTimestamps(), clock);
        OrganizationStates states =
                new OrganizationStates(transactor, repositories.stateVersions, REMEMBERED_ORGANIZATIONS);
        ProofService proofs = ProofService.start(
                transactor,
                repositories.proofs,
                repositories.activities,
                renderer,
                ServerIdentity.open(transactor, repositories.proofs, keys.sealer, base.random, clock),
                EphemeralKey.generate(base.random),
                Main.buildVersion(),
                WireTime.truncate(clock.instant()),
                json);
        ActivityService activities = new ActivityService(
                transactor,
                states,
                repositories.activities,
                registry,
                features.policies.authorizer(),
                features.voters,
                metrics,
                features.webhooks.outbox(states, renderer, json),
                json,
                clock,
                base.ids,
                proofs);
        ApiKeyStampVerifier apiKeyStamps = new ApiKeyStampVerifier(json, REMEMBERED_API_KEYS);
        RequestAuthenticator authenticator = new RequestAuthenticator(
                apiKeyStamps,
                new PasskeyStampVerifier(transactor, repositories.passkeys, base.webAuthnOrigins, json),
                new AttestedStampVerifier(apiKeyStamps, base.oidc, features.otp.service(), json, clock));

        return ApiServer.Services.builder()
                .authenticator(authenticator)
                .callers(new CallerResolver(transactor, repositories.callers, clock))
                .activities(activities)
                .states(states)
                .renderer(renderer)
                .registry(registry)
                .activityQueries(new ActivityQueries(transactor, repositories.activities, renderer, json))
                .organizationQueries(features.organizations.queries(
                        features.wallets.queries(),
                        features.privateKeys.queries(),
                        features.contractInterfaces.queries()))
                .userQueries(features.users.queries())
                .walletQueries(features.wallets.queries())
                .privateKeyQueries(features.privateKeys.queries())
                .policyQueries(features.policies.queries())
                .policyDryRun(new DryRunPoliciesQuery(
                        transactor,
                        repositories.policies,
                        features.policies.authorizer(),
                        new ActivityReplay(repositories.activities, registry, features.voters)))
                .json(json)
                .metrics(metrics)
                .metricsRegistry(metricsRegistry)
                .bundleSignerPublicKey(keys.bundleSigner.publicKeyHex())
                .proofQueries(proofs)
                .tvcQueries(features.tvc.queries())
                .webhookQueries(features.webhooks.queries())
                .auditQueries(new AuditQueries(transactor, repositories.audit))
                .publishedKeys(Map.of(
                        ApiServer.OTP_SIGNER_DISCOVERY_PATH, keys.otpSigner.publicKeyHex(),
                        ApiServer.SESSION_SIGNER_DISCOVERY_PATH, keys.sessionSigner.publicKeyHex(),
                        ApiServer.OAUTH2_ENCRYPTION_KEY_DISCOVERY_PATH, keys.oauth2Secrets.encryptionPublicKey()))
                .readOnlySessions(features.sessions.readOnlySessions())
                .oauth2Queries(features.oauth2.queries())
                .smartContractInterfaceQueries(features.contractInterfaces.queries())
                .subOrganizationQueries(features.organizations.subOrganizationQueries())
                .readiness(readiness)
                .authProxyRoutes(features.authProxy.proxy().routes())
                .version(Main.buildVersion())
                .build();
    }

    /** Keyhaven's long-term public key (hex), which signs boot proofs: what app-proof verifiers pin. */
    public String identityPublicKey() {
        return services.proofQueries().identityPublicKey();
    }

    public RootOrganizationSetup rootSetup() {
        return features.organizations.rootSetup();
    }

    /** {@code kek rotate}: every data key re-wrapped under {@code next}, which this process then uses. */
    public KekRotation.Rotated rotateKek(Kek next) {
        return base.keys.dataKeys.rotateTo(next);
    }

    /** The bundle signer's public key (hex, uncompressed): what clients pin to trust export and import bundles. */
    public String bundleSignerPublicKey() {
        return base.keys.bundleSigner.publicKeyHex();
    }

    /**
     * The issuer of the OIDC tokens {@code oauth2_authenticate} mints: its issuers and public JWKS are what Keyhaven's
     * OIDC verification trusts for {@code oauth_login}.
     */
    public Oauth2TokenIssuer oauth2Tokens() {
        return base.oauth2Tokens;
    }

    /** The keys that sign webhook deliveries (rotation). */
    public WebhookSigningKeys webhookKeys() {
        return features.webhooks.keys();
    }

    /**
     * Starts the API listener, the webhook deliverer, and the auth proxy's listener when it has a port.
     *
     * @throws dev.keyhaven.server.http.ListenerStartException when an address cannot be listened on
     */
    public ApiServer serve() {
        KeyhavenConfig config = base.config;
        ConnectionLimits connections = ConnectionBudget.resolve(config);
        server = ApiServer.start(
                new ApiServer.Settings(
                        config.host(),
                        config.port(),
                        config.maxBodyBytes(),
                        config.corsOrigins(),
                        config.console(),
                        config.shutdownGrace(),
                        connections),
                services);
        features.webhooks.deliverer().start();
        auditHeads.start();
        config.otp()
                .authProxyPort()
                .ifPresent(port -> authProxyServer = AuthProxyServer.start(
                        new AuthProxyServer.Settings(
                                config.host(), port, config.maxBodyBytes(), config.shutdownGrace(), connections),
                        features.authProxy.proxy(),
                        services.json(),
                        services.metrics(),
                        services.readiness()));
        return server;
    }

    /** Signs the audit chains' heads (every {@link AuditHeadSigner#INTERVAL} once serving; on demand here). */
    public AuditHeadSigner auditHeads() {
        return auditHeads;
    }

    /** {@code audit verify}: the chains, their signed heads, and the rows against their entries. */
    public AuditVerification auditVerification() {
        return new AuditVerification(base.transactor, base.repositories.audit);
    }

    /** {@code audit export}: one organization's chain as JSON Lines. */
    public AuditExport auditExport() {
        return new AuditExport(base.transactor, base.repositories.audit);
    }

    /** The auth proxy's listener, when {@link #serve} started one. */
    public Optional<AuthProxyServer> authProxyServer() {
        return Optional.ofNullable(authProxyServer);
    }

    /** Every auth-proxy configuration (id and organization), for the start-up announcement. */
    public List<AuthProxyConfig> authProxyConfigs() {
        return features.authProxy.configs().all();
    }

    /** Creates the default auth-proxy configuration of {@code organizationId} (what {@code init} does). */
    public String createDefaultAuthProxyConfig(String organizationId) {
        return base.transactor
                .write(tx -> features.authProxy
                        .configs()
                        .createDefault(tx, base.ids.next(), organizationId, base.clock.instant()))
                .id();
    }

    /**
     * Creates a configuration for {@code organizationId} (no {@code configId}) or changes one, with the fields
     * {@code changes} names (the {@code update_auth_proxy_config} rules); what the CLI does.
     */
    public AuthProxyConfig saveAuthProxyConfig(Optional<String> configId, String organizationId, Params changes) {
        return base.transactor.write(tx -> features.authProxy
                .configs()
                .save(tx, configId, organizationId, changes, base.clock.instant(), base.ids::next));
    }

    /** The OTP signer's and the session signer's public keys (hex, uncompressed). */
    public String otpSignerPublicKey() {
        return base.keys.otpSigner.publicKeyHex();
    }

    public String sessionSignerPublicKey() {
        return base.keys.sessionSigner.publicKeyHex();
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
            features.webhooks.deliverer().close();
            auditHeads.close();
        } finally {
            features.otp.service().close();
            base.keys.close();
            services.proofQueries().close();
            database.close();
        }
    }
}
