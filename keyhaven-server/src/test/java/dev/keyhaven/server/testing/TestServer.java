package dev.keyhaven.server.testing;

import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.server.app.Keyhaven;
import dev.keyhaven.server.app.KeyhavenConfig;
import dev.keyhaven.server.http.ApiServer;
import dev.keyhaven.server.organization.RootOrganizationSetup;
import dev.keyhaven.server.user.ApiKeyCurve;
import dev.keyhaven.server.user.NewApiKey;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A Keyhaven server running in this JVM on a free port, over a fresh database of the given kind, with a root
 * organization whose root user stamps with a P-256 key.
 */
public final class TestServer implements AutoCloseable {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final StoreKind store;
    private final Path directory;
    private final String databaseUrl;
    private final KeyhavenConfig config;
    /** Whether closing this server drops its database and deletes its directory (false for a {@link #peer}). */
    private final boolean ownsData;

    private final Keyhaven keyhaven;
    private final ApiServer server;
    private final ApiKeyStamper rootStamper;
    private final RootOrganizationSetup.Created root;

    private TestServer(
            StoreKind store,
            Path directory,
            String databaseUrl,
            KeyhavenConfig config,
            boolean ownsData,
            Keyhaven keyhaven,
            ApiServer server,
            ApiKeyStamper rootStamper,
            RootOrganizationSetup.Created root) {
        this.store = store;
        this.directory = directory;
        this.databaseUrl = databaseUrl;
        this.config = config;
        this.ownsData = ownsData;
        this.keyhaven = keyhaven;
        this.server = server;
        this.rootStamper = rootStamper;
        this.root = root;
    }

    public static TestServer start(StoreKind store) {
        return start(store, UnaryOperator.identity(), Clock.systemUTC());
    }

    /**
     * Starts a server whose configuration {@code customize} may change (limits, timestamps, body size...). Its data
     * directory is a new temporary one, deleted on {@link #close}; files a test's configuration needs (templates,
     * issuer lists) belong under {@code defaults.dataDirectory()}, so that they go with it.
     */
    public static TestServer start(StoreKind store, UnaryOperator<KeyhavenConfig> customize, Clock clock) {
        Path directory = TemporaryDirectory.create("keyhaven-test");
        String url = null;
        Keyhaven keyhaven = null;
        try {
            url = store.freshDatabase(directory);
            KeyhavenConfig config = customize.apply(
                    KeyhavenConfig.defaults(directory).withPort(0).withDatabaseUrl(Optional.of(url)));
            keyhaven = Keyhaven.open(config, clock);
            ApiKeyStamper stamper = ApiKeyStamper.generate(ApiKeyStamper.Curve.P256, RANDOM);
            RootOrganizationSetup.Created root = keyhaven.rootSetup()
                    .initialize(
                            "Test organization",
                            "root",
                            NewApiKey.of("root key", stamper.publicKey(), ApiKeyCurve.API_KEY_CURVE_P256));
            return new TestServer(store, directory, url, config, true, keyhaven, keyhaven.serve(), stamper, root);
        } catch (RuntimeException | Error e) {
            // A server that did not start (or a skipped PostgreSQL test) leaves nothing behind either.
            if (keyhaven != null) {
                keyhaven.close();
            }
            if (url != null) {
                store.drop(url);
            }
            TemporaryDirectory.delete(directory);
            throw e;
        }
    }

    /**
     * A second server on this one's database and master key, as another instance of the same deployment runs;
     * closing it leaves the database alone.
     */
    public TestServer peer() {
        Keyhaven other = Keyhaven.open(config, Clock.systemUTC());
        return new TestServer(store, directory, databaseUrl, config, false, other, other.serve(), rootStamper, root);
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.port();
    }

    /** The API listener. */
    public ApiServer apiServer() {
        return server;
    }

    /** The auth proxy's base URL, when the configuration gives it a port. */
    public String authProxyUrl() {
        return "http://127.0.0.1:" + keyhaven.authProxyServer().orElseThrow().port();
    }

    /**
     * The application under test, for what operators do outside the API (webhook key rotation, the default
     * auth-proxy configuration).
     */
    public Keyhaven keyhaven() {
        return keyhaven;
    }

    public String organizationId() {
        return root.organizationId();
    }

    public String rootUserId() {
        return root.userId();
    }

    public String rootApiKeyId() {
        return root.apiKeyId();
    }

    /** Keyhaven's long-term public key, as an operator would pin it from the serve banner. */
    public String identityPublicKey() {
        return keyhaven.identityPublicKey();
    }

    public ApiKeyStamper rootStamper() {
        return rootStamper;
    }

    /** A client acting as the root user on the root organization. */
    public KeyhavenClient rootClient() {
        return new KeyhavenClient(baseUrl(), rootStamper, organizationId());
    }

    /** A fresh random API key of {@code curve}. */
    public static ApiKeyStamper newKey(ApiKeyStamper.Curve curve) {
        return ApiKeyStamper.generate(curve, RANDOM);
    }

    /** This server's data directory (its KEK file; the SQLite database). */
    public Path dataDirectory() {
        return directory;
    }

    /** The JDBC URL of this server's database, for tests that inspect or tamper with stored rows. */
    public String databaseUrl() {
        return databaseUrl;
    }

    public StoreKind store() {
        return store;
    }

    @Override
    public void close() {
        keyhaven.close();
        if (ownsData) {
            store.drop(databaseUrl);
            TemporaryDirectory.delete(directory);
        }
    }
}
