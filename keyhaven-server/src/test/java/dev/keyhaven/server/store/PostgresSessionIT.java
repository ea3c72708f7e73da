package dev.keyhaven.server.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.server.testing.StoreKind;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keyhaven's PostgreSQL sessions write their data pages out early ({@code backend_flush_after}, see
 * {@link Database#SESSION_OPTIONS}), and an operator's URL with its own {@code options} replaces that setting.
 */
class PostgresSessionIT {
    @TempDir
    Path directory;

    @Test
    void pooledSessionsFlushTheirWritesEarly() throws Exception {
        String url = StoreKind.POSTGRES.freshDatabase(directory);
        try {
            try (Database database = Database.open(url, 2, null)) {
                assertThat(setting(database, "backend_flush_after")).isEqualTo("256kB");
            }
        } finally {
            StoreKind.POSTGRES.drop(url);
        }
    }

    @Test
    void theUrlsOwnOptionsWin() throws Exception {
        String url = StoreKind.POSTGRES.freshDatabase(directory);
        String separator = url.contains("?") ? "&" : "?";
        try {
            try (Database database =
                    Database.open(url + separator + "options=-c%20backend_flush_after%3D64kB", 2, null)) {
                assertThat(setting(database, "backend_flush_after")).isEqualTo("64kB");
            }
        } finally {
            StoreKind.POSTGRES.drop(url);
        }
    }

    private static String setting(Database database, String name) throws SQLException {
        try (Connection connection = database.dataSource().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SHOW " + name)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
