package dev.keyhaven.server.http;

import dev.keyhaven.server.activity.ActivityQueries;
import dev.keyhaven.server.activity.ActivityRegistry;
import dev.keyhaven.server.activity.ActivityRenderer;
import dev.keyhaven.server.activity.ActivityService;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.auth.CallerResolver;
import dev.keyhaven.server.auth.RequestAuthenticator;
import dev.keyhaven.server.authproxy.AuthProxyRoute;
import dev.keyhaven.server.organization.OrganizationQueries;
import dev.keyhaven.server.organization.SubOrganizationQueries;
import dev.keyhaven.server.policy.DryRunPoliciesQuery;
import dev.keyhaven.server.policy.PolicyQueries;
import dev.keyhaven.server.privatekey.PrivateKeyQueries;
import dev.keyhaven.server.proof.ProofService;
import dev.keyhaven.server.smartcontract.SmartContractInterfaceQueries;
import dev.keyhaven.server.state.OrganizationStates;
import dev.keyhaven.server.tvc.TvcQueries;
import dev.keyhaven.server.user.UserQueries;
import dev.keyhaven.server.wallet.WalletQueries;
import dev.keyhaven.server.webhook.WebhookQueries;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.ObjectMapper;

/**
 * The main API listener: {@code POST /public/v1/query/*} and {@code /public/v1/submit/*} for every operation in the
 * route table, {@code OPTIONS} preflights, the discovery keys, the health routes ({@link HealthRoutes}),
 * {@code GET /metrics}, its OpenAPI document ({@link OpenApiDocument}), {@code GET /} pointing to it and, unless
 * turned off, the operator console ({@link ConsoleRoutes}). Anything else gets a JSON 404 (or 405 for a known path
 * with the wrong method).
 */
public final class ApiServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);

    /** The webhook signing keys (unauthenticated), cached as Turnkey's are. */
    static final String JWKS_PATH = "/public/v1/discovery/webhooks/jwks";

    static final String JWKS_CACHE_CONTROL = "public, max-age=86400, s-maxage=86400, stale-if-error=604800";

    private final SupervisedListener listener;
    private final AtomicBoolean ready;
    private final ApiEndpoint endpoint;
    private final ApiDescription description;
    private final Set<ServedRoutes.Route> routes;

    private ApiServer(
            SupervisedListener listener,
            AtomicBoolean ready,
            ApiEndpoint endpoint,
            ApiDescription description,
            Set<ServedRoutes.Route> routes) {
        this.listener = listener;
        this.ready = ready;
        this.endpoint = endpoint;
        this.description = description;
        this.routes = routes;
    }

    /** Listener settings. */
    public record Settings(
            String host,
            int port,
            int maxBodyBytes,
            List<String> corsOrigins,
            boolean console,
            Duration shutdownGrace,
            ConnectionLimits connections) {}

    /**
     * The services the listener dispatches to. Build it with {@link #builder()}, which names each service, rather
     * than by position.
     */
    public record Services(
            RequestAuthenticator authenticator,
            CallerResolver callers,
            ActivityService activities,
            OrganizationStates states,
            ActivityRenderer renderer,
            ActivityRegistry registry,
            ActivityQueries activityQueries,
            OrganizationQueries organizationQueries,
            UserQueries userQueries,
            WalletQueries walletQueries,
            PrivateKeyQueries privateKeyQueries,
            PolicyQueries policyQueries,
            DryRunPoliciesQuery policyDryRun,
            ObjectMapper json,
            HttpMetrics metrics,
            PrometheusMeterRegistry metricsRegistry,
            String bundleSignerPublicKey,
            ProofService proofQueries,
            TvcQueries tvcQueries,
            WebhookQueries webhookQueries,
            Map<String, String> publishedKeys,
            dev.keyhaven.server.session.ReadOnlySessions readOnlySessions,
            dev.keyhaven.server.oauth2.Oauth2CredentialQueries oauth2Queries,
            SmartContractInterfaceQueries smartContractInterfaceQueries,
            SubOrganizationQueries subOrganizationQueries,
            dev.keyhaven.server.audit.AuditQueries auditQueries,
            Readiness readiness,
            List<AuthProxyRoute> authProxyRoutes,
            String version) {

        public static Builder builder() {
            return new Builder();
        }

        /** Names each service; {@link #build()} refuses, naming it, a service left unset. */
        public static final class Builder {
            private RequestAuthenticator authenticator;
            private CallerResolver callers;
            private ActivityService activities;
            private OrganizationStates states;
            private ActivityRenderer renderer;
            private ActivityRegistry registry;
            private ActivityQueries activityQueries;
            private OrganizationQueries organizationQueries;
            private UserQueries userQueries;
            private WalletQueries walletQueries;
            private PrivateKeyQueries privateKeyQueries;
            private PolicyQueries policyQueries;
            private DryRunPoliciesQuery policyDryRun;
            private ObjectMapper json;
            private HttpMetrics metrics;
            private List<AuthProxyRoute> authProxyRoutes;
            private PrometheusMeterRegistry metricsRegistry;
            private String bundleSignerPublicKey;
            private ProofService proofQueries;
            private TvcQueries tvcQueries;
            private WebhookQueries webhookQueries;
            private java.util.Map<String, String> publishedKeys;
            private dev.keyhaven.server.session.ReadOnlySessions readOnlySessions;
            private dev.keyhaven.server.oauth2.Oauth2CredentialQueries oauth2Queries;
            private SmartContractInterfaceQueries smartContractInterfaceQueries;
            private SubOrganizationQueries subOrganizationQueries;
            private dev.keyhaven.server.audit.AuditQueries auditQueries;
            private Readiness readiness;
            private String version;

            private Builder() {}

            public Builder authenticator(RequestAuthenticator value) {
                this.authenticator = value;
                return this;
            }

            public Builder callers(CallerResolver value) {
                this.callers = value;
                return this;
            }

            public Builder activities(ActivityService value) {
                this.activities = value;
                return this;
            }

            public Builder states(OrganizationStates value) {
                this.states = value;
                return this;
            }

            public Builder renderer(ActivityRenderer value) {
                this.renderer = value;
                return this;
            }

            public Builder registry(ActivityRegistry value) {
                this.registry = value;
                return this;
            }

            public Builder activityQueries(ActivityQueries value) {
                this.activityQueries = value;
                return this;
            }

            public Builder organizationQueries(OrganizationQueries value) {
                this.organizationQueries = value;
                return this;
            }

            public Builder userQueries(UserQueries value) {
                this.userQueries = value;
                return this;
            }

            public Builder walletQueries(WalletQueries value) {
                this.walletQueries = value;
                return this;
            }

            public Builder privateKeyQueries(PrivateKeyQueries value) {
                this.privateKeyQueries = value;
                return this;
            }

            public Builder policyQueries(PolicyQueries value) {
                this.policyQueries = value;
                return this;
            }

            public Builder policyDryRun(DryRunPoliciesQuery value) {
                this.policyDryRun = value;
                return this;
            }

            public Builder json(ObjectMapper value) {
                this.json = value;
                return this;
            }

            public Builder metrics(HttpMetrics value) {
                this.metrics = value;
                return this;
            }

            public Builder metricsRegistry(PrometheusMeterRegistry value) {
                this.metricsRegistry = value;
                return this;
            }

            public Builder bundleSignerPublicKey(String value) {
                this.bundleSignerPublicKey = value;
                return this;
            }

            public Builder proofQueries(ProofService value) {
                this.proofQueries = value;
                return this;
            }

            public Builder tvcQueries(TvcQueries value) {
                this.tvcQueries = value;
                return this;
            }

            public Builder webhookQueries(WebhookQueries value) {
                this.webhookQueries = value;
                return this;
            }

            public Builder publishedKeys(java.util.Map<String, String> value) {
                this.publishedKeys = value;
                return this;
            }

            public Builder readOnlySessions(dev.keyhaven.server.session.ReadOnlySessions value) {
                this.readOnlySessions = value;
                return this;
            }

            public Builder oauth2Queries(dev.keyhaven.server.oauth2.Oauth2CredentialQueries value) {
                this.oauth2Queries = value;
                return this;
            }

            public Builder subOrganizationQueries(SubOrganizationQueries value) {
                this.subOrganizationQueries = value;
                return this;
            }

            public Builder auditQueries(dev.keyhaven.server.audit.AuditQueries value) {
                this.auditQueries = value;
                return this;
            }

            public Builder smartContractInterfaceQueries(SmartContractInterfaceQueries value) {
                this.smartContractInterfaceQueries = value;
                return this;
            }

            public Builder readiness(Readiness value) {
                this.readiness = value;
                return this;
            }

            /** The auth proxy's route table: documented by this listener's OpenAPI document. */
            public Builder authProxyRoutes(List<AuthProxyRoute> value) {
                this.authProxyRoutes = value;
                return this;
            }

            /** The build's version, shown by {@code GET /}. */
            public Builder version(String value) {
                this.version = value;
                return this;
            }

            /** @throws IllegalStateException naming the first service that was not set */
            public Services build() {
                require(authenticator, "authenticator");
                require(callers, "callers");
                require(activities, "activities");
                require(states, "states");
                require(renderer, "renderer");
                require(registry, "registry");
                require(activityQueries, "activityQueries");
                require(organizationQueries, "organizationQueries");
                require(userQueries, "userQueries");
                require(walletQueries, "walletQueries");
                require(privateKeyQueries, "privateKeyQueries");
                require(policyQueries, "policyQueries");
                require(policyDryRun, "policyDryRun");
                require(json, "json");
                require(metrics, "metrics");
                require(metricsRegistry, "metricsRegistry");
                require(bundleSignerPublicKey, "bundleSignerPublicKey");
                require(proofQueries, "proofQueries");
                require(tvcQueries, "tvcQueries");
                require(webhookQueries, "webhookQueries");
                require(publishedKeys, "publishedKeys");
                require(readOnlySessions, "readOnlySessions");
                require(oauth2Queries, "oauth2Queries");
                require(smartContractInterfaceQueries, "smartContractInterfaceQueries");
                require(subOrganizationQueries, "subOrganizationQueries");
                require(auditQueries, "auditQueries");
                require(readiness, "readiness");
                require(authProxyRoutes, "authProxyRoutes");
                require(version, "version");
                return new Services(
                        authenticator,
                        callers,
                        activities,
                        states,
                        renderer,
                        registry,
                        activityQueries,
                        organizationQueries,
                        userQueries,
                        walletQueries,
                        privateKeyQueries,
                        policyQueries,
                        policyDryRun,
                        json,
                        metrics,
                        metricsRegistry,
                        bundleSignerPublicKey,
                        proofQueries,
                        tvcQueries,
                        webhookQueries,
                        publishedKeys,
                        readOnlySessions,
                        oauth2Queries,
                        smartContractInterfaceQueries,
                        subOrganizationQueries,
                        auditQueries,
                        readiness,
                        List.copyOf(authProxyRoutes),
                        version);
            }

            private static void require(Object service, String name) {
                if (service == null) {
                    throw new IllegalStateException("ApiServer.Services: " + name + " is not set");
                }
            }
        }
    }

    /** Where clients fetch the OTP signer's public key (OTP target bundles, verification tokens). */
    public static final String OTP_SIGNER_DISCOVERY_PATH = "/public/v1/discovery/otp-signer";
    /** Where clients fetch the session signer's public key (session JWTs). */
    public static final String SESSION_SIGNER_DISCOVERY_PATH = "/public/v1/discovery/session-signer";
    /** Where clients fetch the key OAuth 2.0 client secrets are encrypted to ({@code encryptOauth2ClientSecret}). */
    public static final String OAUTH2_ENCRYPTION_KEY_DISCOVERY_PATH = "/public/v1/discovery/oauth2-encryption-key";

    /** Where clients fetch the bundle signer's public key (unauthenticated, like Turnkey's discovery endpoints). */
    public static final String SIGNER_DISCOVERY_PATH = "/public/v1/discovery/signer";

    public static ApiServer start(Settings settings, Services services) {
        HttpMetrics metrics = services.metrics();
        Cors cors = new Cors(settings.corsOrigins());
        AtomicBoolean ready = new AtomicBoolean(false);
        ApiEndpoint endpoint = new ApiEndpoint(
                services.authenticator(),
                services.callers(),
                services.activities(),
                services.states(),
                services.renderer(),
                services.json(),
                metrics,
                cors,
                settings.maxBodyBytes(),
                ready::get,
                services.readOnlySessions());
        List<Operation> operations = Routes.operations(services);
        Set<String> knownPaths = operations.stream().map(Operation::path).collect(Collectors.toSet());
        ErrorBodies errors = new ErrorBodies(services.json());
        List<String> discoveryPaths = Stream.concat(
                        Stream.of(SIGNER_DISCOVERY_PATH, JWKS_PATH), services.publishedKeys().keySet().stream())
                .sorted()
                .toList();
        List<String> consolePaths = settings.console() ? ConsoleRoutes.PATHS : List.of();
        ApiDescription description = new ApiDescription(
                operations, services.registry(), discoveryPaths, services.authProxyRoutes(), consolePaths);

        HttpRouting.Builder routing = HttpRouting.builder();
        ServedRoutes routes = new ServedRoutes(routing);
        for (Operation operation : operations) {
            routes.post(operation.path(), (req, res) -> endpoint.handle(operation, req, res));
            routes.options(operation.path(), cors::preflight);
        }
        byte[] index = services.json().writeValueAsBytes(serviceIndex(services.version()));
        routes.get(ApiDescription.ROOT_PATH, (req, res) -> sendJson(req, res, cors, index));
        byte[] openApi = OpenApiDocument.render(services.json(), description);
        routes.get(ApiDescription.OPENAPI_PATH, (req, res) -> sendJson(req, res, cors, openApi));
        HealthRoutes.register(routes, ready::get, services.readiness());
        if (settings.console()) {
            ConsoleRoutes.register(routes);
        }
        byte[] signer = services.json().writeValueAsBytes(Map.of("publicKey", services.bundleSignerPublicKey()));
        routes.get(SIGNER_DISCOVERY_PATH, (req, res) -> sendJson(req, res, cors, signer));
        routes.get(JWKS_PATH, (req, res) -> {
            res.header(HeaderNames.CONTENT_TYPE, ApiEndpoint.JSON);
            cors.decorate(req, res);
            try {
                byte[] jwks = services.json()
                        .writeValueAsBytes(services.webhookQueries().jwks());
                res.header(HeaderNames.CACHE_CONTROL, JWKS_CACHE_CONTROL);
                ResponseBodies.send(req, res, jwks);
            } catch (ApiException databaseUnavailable) {
                // The keys are read from the database: while it is unreachable, a 503 to retry, not a 500.
                databaseUnavailable
                        .retryAfterSeconds()
                        .ifPresent(s -> res.header(HeaderNames.RETRY_AFTER, Long.toString(s)));
                ResponseBodies.send(
                        req, res.status(databaseUnavailable.code().httpStatus()), errors.render(databaseUnavailable));
            }
        });
        services.publishedKeys().forEach((path, key) -> {
            byte[] published = services.json().writeValueAsBytes(Map.of("publicKey", key));
            routes.get(path, (req, res) -> sendJson(req, res, cors, published));
        });
        routes.get(ApiDescription.METRICS_PATH, (req, res) -> {
            res.header(HeaderNames.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
            ResponseBodies.send(req, res, services.metricsRegistry().scrape().getBytes(StandardCharsets.UTF_8));
        });
        routing.any((req, res) -> notRouted(req, res, knownPaths, errors, cors));

        // The settings Helidon took here (shutdown grace, no JVM hook, TCP_NODELAY) are SupervisedListener's now.
        SupervisedListener listener = SupervisedListener.start(new SupervisedListener.Definition(
                "API",
                "--bind, --port",
                settings.host(),
                settings.port(),
                settings.shutdownGrace(),
                settings.maxBodyBytes(),
                settings.connections(),
                errors,
                routing));
        ready.set(true);
        return new ApiServer(listener, ready, endpoint, description, routes.routes());
    }

    /**
     * What {@code GET /} answers: a pointer to the documentation rather than a 404, for whoever opens the server's
     * address in a browser or probes it.
     */
    private static Map<String, Object> serviceIndex(String version) {
        Map<String, Object> links = new LinkedHashMap<>();
        links.put("openapi", ApiDescription.OPENAPI_PATH);
        links.put("health", "/health");
        Map<String, Object> index = new LinkedHashMap<>();
        index.put("name", "Keyhaven");
        index.put("version", version);
        index.put(
                "documentation",
                "README.md and docs/ in Keyhaven's source; docs/operations.md maps every "
                        + "operation to the class that implements it");
        index.put("links", links);
        return index;
    }

    private static void sendJson(ServerRequest req, ServerResponse res, Cors cors, byte[] body) {
        cors.decorate(req, res);
        res.header(HeaderNames.CONTENT_TYPE, ApiEndpoint.JSON);
        ResponseBodies.send(req, res, body);
    }

    public int port() {
        return listener.port();
    }

    /** What this listener serves, as its documentation is generated from it. */
    ApiDescription description() {
        return description;
    }

    /** Every method and path this listener routes (its fallback aside). */
    Set<ServedRoutes.Route> routes() {
        return routes;
    }

    /**
     * Stops accepting requests and returns once in-flight requests have finished (or the shutdown grace period has
     * passed). From the first moment, {@code /health} answers 503 and a request that reaches the API on a
     * connection that was still open gets a 503 without being processed; new connections are refused.
     */
    @Override
    public void close() {
        ready.set(false);
        LOG.atInfo().addKeyValue("inFlight", endpoint.inFlight()).log("listener stopping");
        listener.close();
        int abandoned = endpoint.inFlight();
        if (abandoned > 0) {
            LOG.atWarn()
                    .addKeyValue("inFlight", abandoned)
                    .log("shutdown grace period ran out while requests were still being handled");
        } else {
            LOG.info("listener stopped with no request in flight");
        }
    }

    private static void notRouted(
            ServerRequest req, ServerResponse res, Set<String> knownPaths, ErrorBodies errors, Cors cors) {
        String path = req.path().path();
        ApiException error = knownPaths.contains(path)
                ? new ApiException(
                        ErrorCode.METHOD_NOT_ALLOWED,
                        "method " + req.prologue().method().text() + " is not allowed on " + path + " (use POST)")
                : new ApiException(ErrorCode.UNKNOWN_OPERATION, "unknown operation: " + abbreviate(path));
        cors.decorate(req, res);
        res.status(error.code().httpStatus());
        res.header(HeaderNames.CONTENT_TYPE, ApiEndpoint.JSON);
        ResponseBodies.send(req, res, errors.render(error));
    }

    private static String abbreviate(String path) {
        return path.length() <= 120 ? path : path.substring(0, 120) + "…";
    }
}
