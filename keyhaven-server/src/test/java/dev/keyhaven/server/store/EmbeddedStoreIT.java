package dev.keyhaven.server.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The settings behind the embedded store's promise that an acknowledged commit survives a crash or power loss, read
 * back from the connections the pool really hands out: a write-ahead log, fsynced on every commit
 * ({@code synchronous=FULL}), and foreign keys enforced. A kill -9 test cannot see a missing fsync (the page cache
 * outlives the process); this can.
 */
class EmbeddedStoreIT {
    private static final int POOL_SIZE = 4;

    @TempDir
    Path directory;

    @Test
    void everyPooledConnectionFsyncsEachCommitThroughTheWriteAheadLog() throws Exception {
        try (Database database = Database.open(Database.embeddedUrl(directory), POOL_SIZE, null)) {
            // Every task holds its connection until all have one, so each sees a different connection of the pool.
            CyclicBarrier allHeld = new CyclicBarrier(POOL_SIZE);
            List<Future<List<String>>> settings = new ArrayList<>();
            try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < POOL_SIZE; i++) {
                    settings.add(executor.submit(() -> database.transactor().read(tx -> {
                        try {
                            allHeld.await(60, TimeUnit.SECONDS);
                            return pragmas(JdbcTx.of(tx).connection());
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    })));
                }
            }
            for (Future<List<String>> connection : settings) {
                assertThat(connection.get())
                        .as("journal_mode, synchronous (2 = FULL), foreign_keys, temp_store (2 = MEMORY: the "
                                + "savepoints' journals never go to temporary files)")
                        .containsExactly("wal", "2", "1", "2");
            }
        }
    }

    /**
     * sqlite-jdbc by default runs {@code SELECT last_insert_rowid()} after every INSERT to serve {@code
     * getGeneratedKeys()}, which Keyhaven never calls; the pool turns that off (3 % of a signature's CPU, on the one
     * writer thread). With it off, an insert has no generated keys to give.
     */
    @Test
    void insertsDoNotFetchGeneratedKeys() throws Exception {
        try (Database database = Database.open(Database.embeddedUrl(directory), POOL_SIZE, null)) {
            boolean anyKey = database.transactor().write(tx -> {
                try (Statement statement = JdbcTx.of(tx).connection().createStatement()) {
                    statement.executeUpdate("CREATE TEMP TABLE numbers (n INTEGER PRIMARY KEY)");
                    statement.executeUpdate("INSERT INTO numbers (n) VALUES (42)");
                    try (ResultSet keys = statement.getGeneratedKeys()) {
                        return keys.next();
                    }
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(anyKey).as("a generated key after an insert").isFalse();
        }
    }

    private static List<String> pragmas(Connection connection) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Statement statement = connection.createStatement()) {
            for (String pragma : List.of("journal_mode", "synchronous", "foreign_keys", "temp_store")) {
                try (ResultSet result = statement.executeQuery("PRAGMA " + pragma)) {
                    result.next();
                    values.add(result.getString(1).toLowerCase(java.util.Locale.ROOT));
                }
            }
        }
        return values;
    }
}
