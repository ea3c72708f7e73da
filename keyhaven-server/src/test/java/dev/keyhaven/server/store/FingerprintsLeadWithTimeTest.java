package dev.keyhaven.server.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.Configuration;
import org.flywaydb.core.api.migration.Context;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Schema V18 on a database that already recorded activities: the horizon of bodies recorded under their bare hash is
 * five minutes (the envelope's allowance for a fast clock) past the migration. FingerprintsIT covers a new database
 * and the trigger on both stores.
 */
class FingerprintsLeadWithTimeTest {
    private static final Instant MIGRATED = Instant.parse("2026-11-27T07:00:00Z");

    @TempDir
    Path directory;

    @Test
    void aDatabaseWithActivitiesGetsAHorizonFiveMinutesPastTheMigration() throws SQLException {
        try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + directory.resolve("v17.db"));
                Statement statement = db.createStatement()) {
            statement.execute("CREATE TABLE activities (id TEXT PRIMARY KEY, fingerprint TEXT NOT NULL)");
            statement.execute("INSERT INTO activities VALUES ('before', '" + "c".repeat(64) + "')");

            new FingerprintsLeadWithTime(Clock.fixed(MIGRATED, ZoneOffset.UTC)).migrate(context(db));

            try (ResultSet horizon = statement.executeQuery("SELECT until_ms FROM unprefixed_fingerprints")) {
                assertThat(horizon.next()).isTrue();
                assertThat(Instant.ofEpochMilli(horizon.getLong(1))).isEqualTo(Instant.parse("2026-11-27T07:05:00Z"));
                assertThat(horizon.next()).isFalse();
            }
            assertThatThrownBy(() -> statement.execute("INSERT INTO activities VALUES ('after', 'short')"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining(FingerprintsLeadWithTime.REFUSAL);
        }
    }

    private static Context context(Connection connection) {
        return new Context() {
            @Override
            public Configuration getConfiguration() {
                return Flyway.configure();
            }

            @Override
            public Connection getConnection() {
                return connection;
            }
        };
    }
}
