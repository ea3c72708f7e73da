package dev.keyhaven.server.store;

import dev.keyhaven.server.tx.TxWork;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;

/**
 * Write transactions committed in groups. Units queue up; one thread runs whatever has queued in one shared
 * transaction and commits them together, so one commit (one fsync) makes a whole batch durable. Each unit still
 * behaves as its own transaction: its submitter gets its result once the commit is durable, or its exception with
 * none of its effects. Under load a batch forms while the previous one commits; alone, a unit commits on its own.
 *
 * <p>The batch ends with its own work, before the commit ({@link JdbcTx#beforeCommit}): its units' audit changes are
 * appended to the chains once per organization, and on PostgreSQL the signatures' records that its units deferred are
 * inserted together, after their organizations' state versions are checked.
 *
 * <p>SQLite (every write: it has one writer) runs each unit in a savepoint, so a failing unit is rolled back alone.
 * PostgreSQL (only the short record writes of signing, {@code Transactor.writeGrouped}) avoids savepoints, which
 * cost round trips and subtransactions: it runs the batch optimistically, and if any unit fails it rolls the batch
 * back and runs each unit again in a transaction of its own.
 */
final class GroupCommitWriter implements AutoCloseable {
    /** Units committed together at most, so that one commit's latency stays bounded. */
    private static final int MAX_BATCH = 64;

    private final DataSource dataSource;
    private final Dialect dialect;
    private final Observer observer;
    private final LinkedBlockingQueue<Unit<?>> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile boolean closed;

    private record Unit<T>(TxWork<T> work, CompletableFuture<T> done) {}

    /**
     * What the writer does with the units, told as it happens. The batching is invisible in the units' results by
     * design, so this is how a test proves that units really shared a commit, and that a failed batch was rolled
     * back and its units run again alone. {@link #unitQueued} is called on the submitter's thread, the others on
     * the writer's.
     */
    interface Observer {
        Observer NONE = new Observer() {};

        /** A unit was queued and its submitter is about to wait for its commit. */
        default void unitQueued() {}

        /** One transaction committed {@code units} units together. */
        default void batchCommitted(int units) {}

        /** A batch of {@code units} units was rolled back because one of them failed; each now runs alone. */
        default void batchRolledBack(int units) {}

        /** A unit of a rolled-back batch ran in a transaction of its own, which committed or rolled back. */
        default void ranAlone(boolean committed) {}
    }

    GroupCommitWriter(DataSource dataSource, Dialect dialect) {
        this(dataSource, dialect, Observer.NONE);
    }

    GroupCommitWriter(DataSource dataSource, Dialect dialect, Observer observer) {
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.observer = observer;
        this.thread = Thread.ofPlatform().name("keyhaven-group-commit").daemon().start(this::run);
    }

    /** Runs {@code work} in a write transaction and returns once it has committed durably. */
    <T> T write(TxWork<T> work) {
        if (closed) {
            throw new StoreException("the database is closed", null);
        }
        if (Thread.currentThread() == thread) {
            throw new IllegalStateException("a write transaction cannot start another one");
        }
        Unit<T> unit = new Unit<>(work, new CompletableFuture<>());
        queue.add(unit);
        observer.unitQueued();
        try {
            return unit.done.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failed) {
                throw failed;
            }
            if (e.getCause() instanceof Error failed) {
                throw failed;
            }
            throw new StoreException("write failed: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while waiting for a commit", e);
        }
    }

    private void run() {
        List<Unit<?>> batch = new ArrayList<>(MAX_BATCH);
        while (!closed || !queue.isEmpty()) {
            try {
                Unit<?> first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH - 1);
                commit(batch);
            } catch (InterruptedException e) {
                closed = true;
            } catch (RuntimeException | Error e) {
                batch.forEach(unit -> unit.done.completeExceptionally(e));
            } finally {
                batch.clear();
            }
        }
        failPending();
    }

    /**
     * Starts a write transaction. On SQLite it is {@code BEGIN IMMEDIATE}: the write lock is taken (waiting up to the
     * busy timeout) before the first read, so a write by another process on the same file (a {@code kek rotate}, a
     * restore check) makes this transaction wait instead of failing when it first writes on a stale snapshot.
     */
    private void beginWrite(Connection connection) throws SQLException {
        if (dialect == Dialect.SQLITE) {
            connection
                    .unwrap(SQLiteConnection.class)
                    .getConnectionConfig()
                    .setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        }
        connection.setAutoCommit(false);
    }

    /** Runs the batch in one transaction and completes the units after the commit. */
    private void commit(List<Unit<?>> batch) {
        List<Runnable> completions = new ArrayList<>(batch.size());
        Throwable unitFailed;
        try (Connection connection = dataSource.getConnection()) {
            beginWrite(connection);
            JdbcTx tx = new JdbcTx(connection, dialect);
            try {
                unitFailed = dialect == Dialect.SQLITE
                        ? inSavepoints(batch, tx, completions)
                        : optimistically(batch, tx, completions);
                if (unitFailed == null) {
                    unitFailed = beforeCommit(tx);
                }
                if (unitFailed == null) {
                    connection.commit();
                    observer.batchCommitted(batch.size());
                } else {
                    rollbackQuietly(connection, unitFailed);
                }
            } catch (SQLException | RuntimeException | Error e) {
                rollbackQuietly(connection, e);
                throw e;
            }
        } catch (SQLException e) {
            failAll(batch, Sql.translate(e, "commit"));
            return;
        }
        if (unitFailed == null) {
            completions.forEach(Runnable::run);
        } else if (DatabaseOutage.is(unitFailed) || dialect == Dialect.SQLITE) {
            // On SQLite only the batch's own append can fail here (see beforeCommit), and its units cannot run again.
            failAll(batch, (RuntimeException) unitFailed);
        } else if (batch.size() == 1) {
            batch.getFirst().done.completeExceptionally(unitFailed);
        } else {
            observer.batchRolledBack(batch.size());
            aloneEach(batch);
        }
    }

    /**
     * Fails {@code batch} with {@code failure}; when the database is unavailable, also every unit queued meanwhile:
     * each would wait for a connection in turn, one pool timeout after the other, for the same answer.
     */
    private void failAll(List<Unit<?>> batch, RuntimeException failure) {
        batch.forEach(unit -> unit.done.completeExceptionally(failure));
        if (DatabaseOutage.is(failure)) {
            Unit<?> queued;
            while ((queued = queue.poll()) != null) {
                queued.done.completeExceptionally(failure);
            }
        }
    }

    /** Runs each unit of a rolled-back batch on its own, until the database proves unavailable. */
    private void aloneEach(List<Unit<?>> batch) {
        for (int i = 0; i < batch.size(); i++) {
            RuntimeException unavailable = alone(batch.get(i));
            if (unavailable != null) {
                failAll(batch.subList(i + 1, batch.size()), unavailable);
                return;
            }
        }
    }

    /**
     * The batch's own last work before its commit: appending the units' audit changes to the chains, once per
     * organization for the whole batch. Null when it ran; else its failure, after which the batch rolls back. On
     * PostgreSQL its units then run alone (one of them caused it); on SQLite, whose units cannot run again (their
     * effects outside the transaction may not be repeatable), the failure is a store failure and fails them all.
     */
    private Throwable beforeCommit(JdbcTx tx) {
        try {
            tx.beforeCommit();
            return null;
        } catch (RuntimeException | Error e) {
            if (dialect == Dialect.SQLITE && !(e instanceof StoreException)) {
                return new StoreException("appending to the audit log failed: " + e.getMessage(), e);
            }
            return e;
        }
    }

    /** Runs each unit in its own savepoint (SQLite): none fails the batch, so the answer is always null. */
    private static Throwable inSavepoints(List<Unit<?>> batch, JdbcTx tx, List<Runnable> completions)
            throws SQLException {
        for (Unit<?> unit : batch) {
            completions.add(runInSavepoint(unit, tx));
        }
        return null;
    }

    /** Runs one unit; returns how to complete it once the batch's fate is known. */
    private static <T> Runnable runInSavepoint(Unit<T> unit, JdbcTx tx) throws SQLException {
        execute(tx, "SAVEPOINT unit");
        AuditBacklog.Mark audited = tx.audit().mark();
        try {
            T result = unit.work.run(tx);
            execute(tx, "RELEASE unit");
            return () -> unit.done.complete(result);
        } catch (RuntimeException | Error e) {
            tx.audit().reset(audited);
            execute(tx, "ROLLBACK TO unit");
            execute(tx, "RELEASE unit");
            return () -> unit.done.completeExceptionally(e);
        }
    }

    /** Runs a statement without parameters or results (a savepoint's), kept prepared on SQLite. */
    private static void execute(JdbcTx tx, String sql) throws SQLException {
        PreparedStatement statement = tx.statement(sql);
        boolean succeeded = false;
        try {
            statement.executeUpdate();
            succeeded = true;
        } finally {
            tx.release(sql, statement, succeeded);
        }
    }

    /**
     * Runs every unit in the one transaction (PostgreSQL): null when all ran, else the first failure, after which
     * the batch must be rolled back (a failed statement aborts a PostgreSQL transaction) and the other units run
     * alone.
     */
    private static Throwable optimistically(List<Unit<?>> batch, JdbcTx tx, List<Runnable> completions) {
        for (Unit<?> unit : batch) {
            try {
                completions.add(run(unit, tx));
            } catch (RuntimeException | Error e) {
                return e;
            }
        }
        return null;
    }

    private static <T> Runnable run(Unit<T> unit, JdbcTx tx) {
        T result = unit.work.run(tx);
        return () -> unit.done.complete(result);
    }

    /**
     * Runs one unit in a transaction of its own, after its batch was rolled back.
     *
     * @return the failure when it was the database's unavailability, else null
     */
    private <T> RuntimeException alone(Unit<T> unit) {
        RuntimeException failed;
        try (Connection connection = dataSource.getConnection()) {
            beginWrite(connection);
            try {
                JdbcTx tx = new JdbcTx(connection, dialect);
                T result = unit.work.run(tx);
                tx.beforeCommit();
                connection.commit();
                observer.ranAlone(true);
                unit.done.complete(result);
                return null;
            } catch (RuntimeException | Error e) {
                rollbackQuietly(connection, e);
                observer.ranAlone(false);
                unit.done.completeExceptionally(e);
                return DatabaseOutage.is(e) ? (RuntimeException) e : null;
            }
        } catch (SQLException e) {
            failed = Sql.translate(e, "commit");
        }
        unit.done.completeExceptionally(failed);
        return DatabaseOutage.is(failed) ? failed : null;
    }

    /**
     * Rolls back, keeping {@code cause} the failure to report: once a connection has broken, the pool has closed it,
     * and the rollback's own error ("Connection is closed") would hide why.
     */
    private static void rollbackQuietly(Connection connection, Throwable cause) {
        try {
            connection.rollback();
        } catch (SQLException rollbackFailed) {
            cause.addSuppressed(rollbackFailed);
        }
    }

    private void failPending() {
        StoreException closedError = new StoreException("the database was closed before the write ran", null);
        Unit<?> unit;
        while ((unit = queue.poll()) != null) {
            unit.done.completeExceptionally(closedError);
        }
    }

    /** Stops accepting writes, lets queued ones finish, and stops the thread. */
    @Override
    public void close() {
        closed = true;
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
