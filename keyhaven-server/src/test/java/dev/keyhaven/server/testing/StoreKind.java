package dev.keyhaven.server.testing;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;

/**
 * The two stores every storage test runs against. PostgreSQL is the server at 127.0.0.1:5432 (trust auth, user
 * postgres); each use gets a fresh database. When it cannot be reached the test is skipped loudly, unless
 * {@code KEYHAVEN_REQUIRE_POSTGRES=1} (set by CI), which turns the skip into a failure.
 */
public enum StoreKind {
    SQLITE,
    POSTGRES;

    static final String ADMIN_URL = System.getenv()
            .getOrDefault("KEYHAVEN_TEST_PG_URL", "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres");

    /** A JDBC URL of a new, empty database of this kind; SQLite lives in {@code directory}. */
    public String freshDatabase(Path directory) {
        return switch (this) {
            case SQLITE -> "jdbc:sqlite:" + directory.resolve("keyhaven.db").toAbsolutePath();
            case POSTGRES -> createPostgresDatabase();
        };
    }

    private static String createPostgresDatabase() {
        String name = "keyhaven_test_"
                + UUID.randomUUID().toString().replace("-", "").substring(0, 16).toLowerCase(Locale.ROOT);
        try (Connection admin = DriverManager.getConnection(ADMIN_URL);
                Statement statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            String message = "PostgreSQL is not reachable at " + ADMIN_URL + " (" + e.getMessage() + ")";
            if ("1".equals(System.getenv("KEYHAVEN_REQUIRE_POSTGRES"))) {
                throw new IllegalStateException(message + " and KEYHAVEN_REQUIRE_POSTGRES=1", e);
            }
            System.err.println("!!! SKIPPING PostgreSQL tests: " + message);
            Assumptions.abort("SKIPPED LOUDLY: " + message);
        }
        return ADMIN_URL.replace("/postgres?", "/" + name + "?");
    }

    /** Drops a database made by {@link #freshDatabase} (PostgreSQL only; SQLite files go with their directory). */
    public void drop(String jdbcUrl) {
        if (this != POSTGRES) {
            return;
        }
        String name = jdbcUrl.substring(jdbcUrl.lastIndexOf('/') + 1, jdbcUrl.indexOf('?'));
        try (Connection admin = DriverManager.getConnection(ADMIN_URL);
                Statement statement = admin.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        } catch (SQLException e) {
            System.err.println("could not drop test database " + name + ": " + e.getMessage());
        }
    }
}
