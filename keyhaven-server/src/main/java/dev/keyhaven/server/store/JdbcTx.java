package dev.keyhaven.server.store;

import dev.keyhaven.server.tx.Tx;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;

/**
 * A transaction on one JDBC connection, with what it must still do just before it commits: insert the records it
 * deferred and append its audit changes to their organizations' chains ({@link #beforeCommit}, which whoever commits
 * calls).
 */
final class JdbcTx implements Tx {
    private final Connection connection;
    private final Dialect dialect;
    private final AuditBacklog audit = new AuditBacklog();
    private final List<DeferredRecord> records = new ArrayList<>();

    JdbcTx(Connection connection, Dialect dialect) {
        this.connection = connection;
        this.dialect = dialect;
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
