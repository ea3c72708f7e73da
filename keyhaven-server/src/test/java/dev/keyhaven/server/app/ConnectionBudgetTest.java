package dev.keyhaven.server.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.server.app.ConnectionBudget.Descriptors;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConnectionBudgetTest {
    private static final KeyhavenConfig SQLITE = KeyhavenConfig.defaults(Path.of("/tmp/keyhaven-budget"));

    @Test
    void theReserveCoversTheDatabasePoolWebhooksAndHeadroom() {
        // 64 headroom + 3 descriptors for each of SQLite's 4 pooled connections + 32 webhook attempts in flight.
        assertThat(ConnectionBudget.reserved(SQLITE)).isEqualTo(64 + 3 * 4 + 32);
        assertThat(ConnectionBudget.reserved(
                        SQLITE.withDatabaseUrl(Optional.of("jdbc:postgresql://127.0.0.1:5432/keyhaven"))))
                .isEqualTo(64 + 3 * 16 + 32);
    }

    @Test
    void theListenersShareWhatTheLimitLeaves() {
        // ulimit -n 256 with 28 descriptors open at start (what a fresh SQLite server has).
        Descriptors descriptors = new Descriptors(256, 28);
        assertThat(ConnectionBudget.perListener(descriptors, 1, 108)).isEqualTo(120);
        assertThat(ConnectionBudget.perListener(descriptors, 2, 108)).isEqualTo(60);
    }

    @Test
    void theDerivedCapStaysBetweenOneAndTheMostPerListener() {
        assertThat(ConnectionBudget.perListener(new Descriptors(1_048_576, 30), 2, 144))
                .isEqualTo(4096);
        assertThat(ConnectionBudget.perListener(new Descriptors(64, 40), 2, 144))
                .isEqualTo(1);
    }
}
