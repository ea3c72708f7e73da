package dev.keyhaven.server.store;

import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.tx.TxWork;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;

/**
 * Transactions on a pooled {@link DataSource}. On SQLite, which allows one writer, write transactions go to a
 * {@link GroupCommitWriter}, which runs them one after another and commits them in batches; readers run concurrently
 * on their own connections (WAL mode). On PostgreSQL every transaction runs on its own pooled connection, except
 * grouped writes ({@link #writeGrouped}), which a {@link GroupCommitWriter} of their own commits in batches.
 */
final class JdbcTransactor implements Transactor, AutoCloseable {
    private final DataSource dataSource;
    private final Dialect dialect;
    private final GroupCommitWriter sqliteWriter;
    private final GroupCommitWriter postgresGroups;

    JdbcTransactor(DataSource dataSource, Dialect dialect) {
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.sqliteWriter = dialect == Dialect.SQLITE ? new GroupCommitWriter(dataSource, dialect) : null;
        this.postgresGroups = dialect == Dialect.POSTGRESQL ? new GroupCommitWriter(dataSource, dialect) : null;
    }

    @Override
    public <T> T write(TxWork<T> work) {
        return sqliteWriter != null ? sqliteWriter.write(work) : inTransaction(work);
    }

    @Override
    public <T> T writeGrouped(TxWork<T> work) {
        return sqliteWriter != null ? sqliteWriter.write(work) : postgresGroups.write(work);
    }

    @Override
    public void close() {
        if (sqliteWriter != null) {
            sqliteWriter.close();
        }
        if (postgresGroups != null) {
            postgresGroups.close();
        }
    }

    @Override
    public <T> T read(TxWork<T> work) {
        return inTransaction(work);
    }

    /**
     * On a pooled connection as it is handed out, in auto-commit mode: the one statement is its own transaction (on
     * SQLite a read transaction, which never takes the write lock).
     */
    @Override
    public <T> T readStatement(TxWork<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            return work.run(new JdbcTx(connection, dialect));
        } catch (SQLException e) {
            throw Sql.translate(e, "read");
        }
    }

    private <T> T inTransaction(TxWork<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            if (dialect == Dialect.SQLITE) {
                // A pooled connection may come from the writer, which begins its transactions IMMEDIATE; a read
                // must not take the write lock.
                connection
                        .unwrap(SQLiteConnection.class)
                        .getConnectionConfig()
                        .setTransactionMode(SQLiteConfig.TransactionMode.DEFERRED);
            }
            connection.setAutoCommit(false);
            try {
                JdbcTx tx = new JdbcTx(connection, dialect);
                T result = work.run(tx);
                tx.beforeCommit();
                connection.commit();
                return result;
            } catch (RuntimeException | Error e) {
                rollbackQuietly(connection, e);
                throw e;
            } catch (SQLException e) {
                rollbackQuietly(connection, e);
                throw e;
            }
        } catch (SQLException e) {
            throw Sql.translate(e, "commit");
        }
    }

    private static void rollbackQuietly(Connection connection, Throwable cause) {
        try {
            connection.rollback();
        } catch (SQLException rollbackFailed) {
            cause.addSuppressed(rollbackFailed);
        }
    }
}
