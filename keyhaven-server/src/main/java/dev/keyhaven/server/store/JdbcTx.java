package dev.keyhaven.server.store;

import dev.keyhaven.server.tx.Tx;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.sqlite.SQLiteConnection;

/**
 * A transaction on one JDBC connection, with what it must still do just before it commits: insert the records it
 * deferred and append its audit changes to their organizations' chains ({@link #beforeCommit}, which whoever commits
 * calls). On SQLite its statements come from the connection's {@link StatementCache}.
 */
final class JdbcTx implements Tx {
    private final Connection connection;
    private final Dialect dialect;
    private final SQLiteConnection sqlite;
    private final StatementCache.Statements statements;
    private final AuditBacklog audit = new AuditBacklog();
    private final List<DeferredRecord> records = new ArrayList<>();

    JdbcTx(Connection connection, Dialect dialect) throws SQLException {
        this.connection = connection;
        this.dialect = dialect;
        this.sqlite = dialect == Dialect.SQLITE ? connection.unwrap(SQLiteConnection.class) : null;
        this.statements = sqlite != null ? StatementCache.of(connection) : null;
    }

    static JdbcTx of(Tx tx) {
        return (JdbcTx) tx;
    }

    Connection connection() {
        return connection;
    }

    Dialect dialect() {
        return dialect;
    }

    /** A statement for {@code sql}; give it back with {@link #release} once done with it and its results. */
    PreparedStatement statement(String sql) throws SQLException {
        return statements != null ? statements.take(sqlite, sql) : connection.prepareStatement(sql);
    }

    /** Gives back a statement of {@link #statement}; {@code succeeded} says whether its last use raised no error. */
    void release(String sql, PreparedStatement statement, boolean succeeded) throws SQLException {
        if (statements != null) {
            statements.giveBack(sql, statement, succeeded);
        } else {
            statement.close();
        }
    }

    /** The audit changes made so far and not yet appended. */
    AuditBacklog audit() {
        return audit;
    }

    /** The signatures' records to insert when the transaction is about to commit (PostgreSQL grouped writes). */
    List<DeferredRecord> records() {
        return records;
    }

    /**
     * The work that must come last in the transaction: the deferred records and the chain appends, which take the
     * organizations' rows.
     */
    void beforeCommit() {
        JdbcAuditLog.appendPending(this);
    }
}
