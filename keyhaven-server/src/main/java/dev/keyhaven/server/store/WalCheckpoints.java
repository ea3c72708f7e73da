package dev.keyhaven.server.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SQLite's checkpoints (copying the write-ahead log's pages into the database file, then syncing that file) on a
 * thread of their own. SQLite checkpoints on the connection whose commit takes the log past 1,000 pages, which is the
 * one writer's, the serial path every write waits on: about 65 pages copied per commit under signing, and an
 * {@code fsync} of the database file every tenth commit or so, twelve times slower than the log's (BENCHMARKS.md).
 *
 * <p>Every {@link #EVERY}, this thread runs {@code PRAGMA wal_checkpoint(PASSIVE)} on a connection of its own: it
 * copies whatever committed pages no reader still needs from the log, never takes the write lock and never waits for
 * one. SQLite's own checkpoint stays on as it was: when the log reaches 1,000 pages the writer still checkpoints, but
 * finds little left to copy; and only such a checkpoint, between two of the writer's commits, lets the log start over
 * from its beginning under a steady load. Durability does not change: a checkpoint copies committed pages that the log
 * already holds on disk, and syncs the database file before the log may be reused.
 */
final class WalCheckpoints implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WalCheckpoints.class);

    /**
     * How often the log is copied: often enough that the writer's own checkpoint finds little left (at 10,000
     * signatures a second a round finds about 500 of the 1,000 pages), and rarely enough that the pages every commit
     * dirties again (the right edges of the activities' indexes) are copied once for many commits: at 10 ms this
     * thread took about a third more CPU per signature (BENCHMARKS.md).
     */
    private static final Duration EVERY = Duration.ofMillis(40);

    /** How often a failing round is tried again. */
    private static final Duration AFTER_A_FAILURE = Duration.ofSeconds(1);

    private final String jdbcUrl;
    private final Properties properties;
    private final Thread thread;
    private final AtomicLong failures = new AtomicLong();
    private volatile boolean closed;
    private Connection connection;

    /**
     * Starts checkpointing the database at {@code jdbcUrl}, connecting with {@code properties} (the pool's: the same
     * journal mode and busy timeout).
     */
    WalCheckpoints(String jdbcUrl, Properties properties) {
        this.jdbcUrl = jdbcUrl;
        this.properties = properties;
        this.thread =
                Thread.ofPlatform().name("keyhaven-sqlite-checkpoints").daemon().start(this::run);
    }

    /** Rounds that failed so far (each logged; the next round connects again). */
    long failures() {
        return failures.get();
    }

    private void run() {
        boolean failing = false;
        while (!closed) {
            try {
                TimeUnit.MILLISECONDS.sleep((failing ? AFTER_A_FAILURE : EVERY).toMillis());
                checkpoint();
                if (failing) {
                    LOG.info("checkpointing the embedded database works again");
                    failing = false;
                }
            } catch (InterruptedException e) {
                break;
            } catch (SQLException | RuntimeException e) {
                failures.incrementAndGet();
                disconnect();
                if (!failing) {
                    // Once per spell of failures: the writer's own checkpoints go on meanwhile, so nothing is at risk.
                    LOG.warn("checkpointing the embedded database failed; retrying: {}", e.toString());
                    failing = true;
                }
            }
        }
        disconnect();
    }

    private void checkpoint() throws SQLException {
        if (connection == null) {
            connection = DriverManager.getConnection(jdbcUrl, properties);
        }
        // Its one row (busy, pages in the log, pages of them in the database file) needs no action: a busy round
        // (the writer's checkpoint was running) is simply the next round's work.
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("PRAGMA wal_checkpoint(PASSIVE)")) {
            if (!result.next()) {
                throw new SQLException("PRAGMA wal_checkpoint answered no row");
            }
        }
    }

    private void disconnect() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.debug("closing the checkpoints' connection failed: {}", e.toString());
            }
            connection = null;
        }
    }

    /** Stops the thread (after the round in progress) and closes its connection. */
    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
