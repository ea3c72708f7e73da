package dev.keyhaven.server.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded store's checkpoints run on a thread of their own: the database file takes the log's pages while the
 * log is far below the 1,000 pages at which the writer would checkpoint by itself.
 */
class WalCheckpointsIT {
    /**
     * A page of 4 KiB each, in a commit of its own: three to five pages of log per commit (the row's, the table's
     * pages above it, the database's header), so at most about 750 pages even if no checkpoint let the log start
     * again, under the 1,000 that make the writer checkpoint.
     */
    private static final int ROWS = 150;

    /** The log's size at which the writer checkpoints by itself (SQLite's {@code wal_autocheckpoint}). */
    private static final long WRITER_CHECKPOINTS_AT = 1_000;

    /** A page of log: the page and its frame header. */
    private static final long FRAME_BYTES = 4096 + 24;

    @TempDir
    Path directory;

    @Test
    void theDatabaseFileTakesTheLogsPagesWithoutTheWriterCheckpointing() throws Exception {
        Path file = directory.resolve("keyhaven.db");
        try (Database database = Database.open(Database.embeddedUrl(directory), 4, null)) {
            database.transactor().write(tx -> Sql.update(tx, "CREATE TABLE scratch (payload BLOB NOT NULL)"));
            try (Connection connection = database.dataSource().getConnection();
                    Statement statement = connection.createStatement()) {
                // Start from an empty log (everything so far in the database file), so that the writer's own
                // checkpoint, at 1,000 pages of log, cannot come into it.
                statement.execute("PRAGMA wal_checkpoint(TRUNCATE)");
            }
            long before = Files.size(file);
            for (int i = 0; i < ROWS; i++) {
                database.transactor()
                        .write(tx -> Sql.update(tx, "INSERT INTO scratch (payload) VALUES (randomblob(4000))"));
            }
            // The log starts again from its beginning only after a checkpoint took all of it; on a busy machine
            // the commits may come faster than that, so its size says only that the writer's threshold was never
            // reached, and so that whatever reached the database file, the checkpoints' thread put there.
            assertThat(Files.size(directory.resolve("keyhaven.db-wal")) / FRAME_BYTES)
                    .as("the log never reached the writer's threshold")
                    .isLessThan(WRITER_CHECKPOINTS_AT);

            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (Files.size(file) < before + ROWS * 4000L && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(Files.size(file))
                    .as("the database file grew by the rows' pages, which only a checkpoint writes there")
                    .isGreaterThanOrEqualTo(before + ROWS * 4000L);
            assertThat(database.checkpoints().failures()).isZero();
        }
        assertThat(Thread.getAllStackTraces().keySet())
                .as("closing the database stops the checkpoints' thread")
                .noneMatch(thread -> thread.getName().equals("keyhaven-sqlite-checkpoints") && thread.isAlive());
    }

    @Test
    void aDatabaseItCannotOpenIsRetriedAndLoggedUntilClosed() throws Exception {
        Path missing = directory.resolve("no-such-directory").resolve("keyhaven.db");
        Properties properties = new Properties();
        properties.setProperty("journal_mode", "WAL");
        try (WalCheckpoints checkpoints = new WalCheckpoints("jdbc:sqlite:" + missing, properties)) {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (checkpoints.failures() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(checkpoints.failures())
                    .as("it tries again, a second apart")
                    .isGreaterThanOrEqualTo(3);
        }
        assertThat(missing.getParent()).doesNotExist();
    }
}
