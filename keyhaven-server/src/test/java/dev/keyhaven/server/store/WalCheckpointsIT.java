package dev.keyhaven.server.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.server.tx.Transactor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded store's log is copied into the database file by the checkpoint thread, not by the connection that
 * commits (whose own threshold is far above what these commits write), and a commit's rows are in the log before
 * that: a reader that opens the files after the server is gone finds them either way.
 */
class WalCheckpointsIT {
    /** Rows of about 4 KiB: each fills a page of its own. */
    private static final int ROWS = 600;

    @TempDir
    Path directory;

    @Test
    void theLogIsCopiedIntoTheDatabaseFileOffTheCommittingConnection() throws Exception {
        String url = Database.embeddedUrl(directory);
        Path file = directory.resolve("keyhaven.db");
        try (Database database = Database.open(url, 2, null)) {
            Transactor transactor = database.transactor();
            long autocheckpoint = transactor.read(tx -> Sql.one(tx, "PRAGMA wal_autocheckpoint", rs -> rs.getLong(1))
                    .orElseThrow());
            assertThat(autocheckpoint).isEqualTo(WalCheckpoints.WRITER_THRESHOLD_PAGES);

            transactor.write(tx -> Sql.update(tx, "CREATE TABLE scratch (n INTEGER PRIMARY KEY, filler TEXT)"));
            long before = Files.size(file);
            for (int i = 0; i < ROWS; i++) {
                int n = i;
                transactor.write(
                        tx -> Sql.update(tx, "INSERT INTO scratch (n, filler) VALUES (?, ?)", n, "x".repeat(4000)));
            }
            // 600 pages is far below the committing connections' threshold: only the checkpoint thread copies them.
            Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
            while (Files.size(file) < before + ROWS * 4096L && Instant.now().isBefore(deadline)) {
                Thread.sleep(50);
            }
            assertThat(Files.size(file)).isGreaterThanOrEqualTo(before + ROWS * 4096L);
        }
        try (Connection reopened = DriverManager.getConnection(url);
                Statement statement = reopened.createStatement();
                ResultSet rows = statement.executeQuery("SELECT COUNT(*), SUM(LENGTH(filler)) FROM scratch")) {
            rows.next();
            assertThat(rows.getLong(1)).isEqualTo(ROWS);
            assertThat(rows.getLong(2)).isEqualTo(ROWS * 4000L);
        }
    }
}
