package dev.keyhaven.server.store;

import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.tx.TxWork;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;

/**
 * Transactions on a pooled {@link DataSource}. On SQLite, write transactions are serialised by an in-process lock:
 * SQLite allows one writer, and waiting on a Java lock is cheaper and fairer than its busy-retry loop; readers run
 * concurrently on their own connections (WAL mode).
 */
final class JdbcTransactor implements Transactor {
    private final DataSource dataSource;
    private final Dialect dialect;
    private final ReentrantLock writeLock = new ReentrantLock(true);

    JdbcTransactor(DataSource dataSource, Dialect dialect) {
        this.dataSource = dataSource;
        this.dialect = dialect;
    }

    @Override
    public <T> T write(TxWork<T> work) {
        boolean serialise = dialect == Dialect.SQLITE;
        if (serialise) {
            writeLock.lock();
        }
        try {
            return inTransaction(work);
        } finally {
            if (serialise) {
                writeLock.unlock();
            }
        }
    }

    @Override
    public <T> T read(TxWork<T> work) {
        return inTransaction(work);
    }

    private <T> T inTransaction(TxWork<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                T result = work.run(new JdbcTx(connection, dialect));
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
