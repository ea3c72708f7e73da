package dev.keyhaven.server.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
 * {@link Database#SESSION_OPTIONS}), and an operator's URL with its own {@code options} replaces that setting; a
 * database that refuses the login's settings stops the start with one line saying why.
 */
class PostgresSessionIT {
    @TempDir
    Path directory;

    @Test
    void pooledSessionsFlushTheirWritesEarly() throws Exception {
        assertThat(backendFlushAfter("")).isEqualTo("256kB");
    }

    @Test
    void theUrlsOwnOptionsWin() throws Exception {
        assertThat(backendFlushAfter("options=-c%20backend_flush_after%3D64kB")).isEqualTo("64kB");
    }

    @Test
    void aDatabaseThatRefusesTheSettingsFailsTheStartInOneLine() {
        assertThatThrownBy(() -> backendFlushAfter("options=-c%20no_such_setting%3D1"))
                .isInstanceOf(DatabaseOpenException.class)
                .hasMessageStartingWith("cannot open the database: PostgreSQL at ")
                .hasMessageContaining("unrecognized configuration parameter \"no_such_setting\"")
                .hasMessageNotContaining("\n");
    }

    /** {@code backend_flush_after} as a pooled session of a fresh database sees it, {@code urlParameters} added. */
    private String backendFlushAfter(String urlParameters) throws SQLException {
        String url = StoreKind.POSTGRES.freshDatabase(directory);
        String opened = urlParameters.isEmpty() ? url : url + (url.contains("?") ? "&" : "?") + urlParameters;
        try (Database database = Database.open(opened, 2, null);
                Connection connection = database.dataSource().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SHOW backend_flush_after")) {
            rs.next();
            return rs.getString(1);
        } finally {
            StoreKind.POSTGRES.drop(url);
        }
    }
}
