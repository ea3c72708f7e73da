package dev.keyhaven.server.testing;

import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.server.app.KeyhavenConfig;
import java.time.Clock;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Base of the integration tests that run once per store: each store gets one {@link TestServer} for the class,
 * and {@link #root} is a client of its root user. Subclasses adjust the configuration or the clock by overriding
 * {@link #configure} and {@link #clock}.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class OnBothStores {
    @Parameter
    protected StoreKind store;

    protected TestServer server;
    protected KeyhavenClient root;

    /** The configuration of this class's server; the defaults unless overridden. */
    protected KeyhavenConfig configure(KeyhavenConfig defaults) {
        return defaults;
    }

    /** The clock of this class's server; the system clock unless overridden. */
    protected Clock clock() {
        return Clock.systemUTC();
    }

    @BeforeParameterizedClassInvocation
    void startServer() {
        server = TestServer.start(store, this::configure, clock());
        root = server.rootClient();
    }

    @AfterParameterizedClassInvocation
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }
}
