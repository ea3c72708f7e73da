package dev.keyhaven.server.store;

import dev.keyhaven.server.tx.Tx;
import java.sql.Connection;

/**
 * A transaction on one JDBC connection, with what it must still do just before it commits: append its audit changes
 * to their organizations' chains ({@link #beforeCommit}, which whoever commits calls).
 */
final class JdbcTx implements Tx {
    private final Connection connection;
    private final Dialect dialect;
    private final AuditBacklog audit = new AuditBacklog();

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

    /** The work that must come last in the transaction: the chain appends, which take the organizations' rows. */
    void beforeCommit() {
        JdbcAuditLog.appendPending(this);
    }
}
