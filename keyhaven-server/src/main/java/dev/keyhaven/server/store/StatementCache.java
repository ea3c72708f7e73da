package dev.keyhaven.server.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.WeakHashMap;
import org.sqlite.SQLiteConnection;

/**
 * SQLite's prepared statements, kept for reuse on each of its connections. SQLite parses and plans a statement's SQL
 * each time it is prepared, and for Keyhaven's statements that costs more than running them: in profiles of the
 * server, {@code sqlite3_prepare} took 15 % of its CPU for {@code whoami} (two one-row reads) and 17 % of the serial
 * writer's for signing. (PostgreSQL's driver keeps its own statements, server-side after a few uses.)
 *
 * <p>The statements are prepared on the driver's connection under the pool's proxy, so the pool does not close them
 * when the connection goes back to it; the driver finalizes them when it closes the connection, and the cache
 * forgets that connection once it is gone (weak keys). A connection is used by one thread at a time, and a statement
 * is taken out of the cache while in use, so a nested use of the same SQL prepares a second one.
 */
final class StatementCache {
    /** Distinct statements kept per connection, least recently used dropped first. */
    private static final int PER_CONNECTION = 128;

    private static final Map<SQLiteConnection, Statements> CONNECTIONS =
            Collections.synchronizedMap(new WeakHashMap<>());

    private StatementCache() {}

    /** The statements of {@code pooled}'s SQLite connection. */
    static Statements of(Connection pooled) throws SQLException {
        SQLiteConnection connection = pooled.unwrap(SQLiteConnection.class);
        return CONNECTIONS.computeIfAbsent(connection, c -> new Statements());
    }

    /** One connection's statements (it never references the connection, which is the weak key). */
    static final class Statements {
        private final LinkedHashMap<String, PreparedStatement> idle = new LinkedHashMap<>(64, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
                if (size() <= PER_CONNECTION) {
                    return false;
                }
                closeQuietly(eldest.getValue());
                return true;
            }
        };

        /** A statement for {@code sql} on {@code connection}: a kept one, else newly prepared. */
        PreparedStatement take(SQLiteConnection connection, String sql) throws SQLException {
            PreparedStatement kept = idle.remove(sql);
            return kept != null && !kept.isClosed() ? kept : connection.prepareStatement(sql);
        }

        /**
         * Gives a statement back after use: kept, its parameters cleared, if it ran without error ({@code reusable});
         * else closed, since the driver may have finalized it.
         */
        void giveBack(String sql, PreparedStatement statement, boolean reusable) {
            if (!reusable) {
                closeQuietly(statement);
                return;
            }
            try {
                statement.clearParameters();
            } catch (SQLException e) {
                closeQuietly(statement);
                return;
            }
            PreparedStatement other = idle.put(sql, statement);
            if (other != null && other != statement) {
                closeQuietly(other);
            }
        }
    }

    private static void closeQuietly(PreparedStatement statement) {
        try {
            statement.close();
        } catch (SQLException ignored) {
            // Closing is all that was left to do with it.
        }
    }
}
