package dev.keyhaven.server.store;

import dev.keyhaven.server.tx.Tx;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
    private final Set<String> heldOrganizations = new HashSet<>();

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
     * Takes the organization's row, as advancing its state version or appending to its chain does, unless this
     * transaction holds it already (PostgreSQL; SQLite runs one writer at a time). Whoever inserts an activity takes
     * the row first: its unique fingerprint is then only ever inserted under that lock, so two submissions of one
     * body never hold one lock each while waiting for the other's (the organization's row, the fingerprint's index
     * entry), which PostgreSQL ends by aborting one of them.
     */
    void holdOrganization(String organizationId) {
        if (dialect == Dialect.POSTGRESQL && heldOrganizations.add(organizationId)) {
            // NO KEY UPDATE, the lock an UPDATE of the row takes: foreign keys' KEY SHARE checks pass it by.
            Sql.one(this, "SELECT 1 FROM organizations WHERE id = ? FOR NO KEY UPDATE", rs -> 1, organizationId);
        }
    }

    /** Notes that a statement of this transaction took the organization's row (an UPDATE of it). */
    void heldOrganization(String organizationId) {
        heldOrganizations.add(organizationId);
    }

    /**
     * The work that must come last in the transaction: the deferred records and the chain appends, which take the
     * organizations' rows.
     */
    void beforeCommit() {
        JdbcAuditLog.appendPending(this);
    }
}
