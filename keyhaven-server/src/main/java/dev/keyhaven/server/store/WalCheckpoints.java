package dev.keyhaven.server.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies the embedded store's write-ahead log back into the database file on a thread of its own, so that the serial
 * writer only appends to the log and syncs it.
 *
 * <p>By default SQLite checkpoints on the connection that commits, once the log passes 1,000 pages: the writer, which
 * every activity waits for, stopped to copy pages and sync the database file, and the rightmost index pages that
 * every commit changes were copied again at each of those checkpoints. Here the pool's connections checkpoint only
 * past {@link #WRITER_THRESHOLD_PAGES} (a bound on the log should this thread fall behind or die), and this thread
 * runs a {@code PASSIVE} checkpoint every {@link #INTERVAL}: it copies what no reader still needs without taking any
 * lock a writer or reader waits for, and each page changed in the interval once.
 *
 * <p>Durability does not depend on it: a commit is durable when its log frames are synced ({@code synchronous=FULL}),
 * and a crash before a checkpoint leaves them in the log, where SQLite finds them on the next open.
 */
final class WalCheckpoints implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WalCheckpoints.class);

    /** {@code wal_autocheckpoint} of the pool's connections: 80 MB of 4 KiB pages. */
    static final int WRITER_THRESHOLD_PAGES = 20_000;

    static final Duration INTERVAL = Duration.ofMillis(200);

    private final DataSource dataSource;
    private final Thread thread;
    private volatile boolean closed;

    private WalCheckpoints(DataSource dataSource) {
        this.dataSource = dataSource;
        this.thread =
                Thread.ofPlatform().daemon().name("keyhaven-wal-checkpoints").unstarted(this::run);
    }

    static WalCheckpoints start(DataSource dataSource) {
        WalCheckpoints checkpoints = new WalCheckpoints(dataSource);
        checkpoints.thread.start();
        return checkpoints;
    }

    private void run() {
        while (!closed) {
            try {
                Thread.sleep(INTERVAL);
                checkpoint("PASSIVE");
            } catch (InterruptedException e) {
                return;
            } catch (SQLException | RuntimeException e) {
                // The next interval tries again; meanwhile the writer's own threshold bounds the log.
                if (!closed) {
                    LOG.atWarn()
                            .addKeyValue("error", e.getClass().getSimpleName())
                            .log("wal checkpoint failed");
                }
            }
        }
    }

    /** Runs one checkpoint of {@code mode}; returns the log's frames not yet copied (busy readers' frames). */
    long checkpoint(String mode) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("PRAGMA wal_checkpoint(" + mode + ")")) {
            result.next();
            // (busy, frames in the log, frames copied); -1 frames when the database is not in WAL mode.
            return Math.max(0, result.getLong(2) - result.getLong(3));
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
