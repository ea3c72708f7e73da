package dev.keyhaven.server.store;

import dev.keyhaven.server.tx.TxWork;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * SQLite's one writer, with group commit. Write transactions queue up; one thread runs whatever has queued, each in
 * a savepoint of one shared transaction, and commits them together, so one fsync makes a whole batch durable. A
 * unit that fails is rolled back to its savepoint alone; its submitter gets its exception, the others their results
 * once the commit is durable. Under load a batch forms while the previous one is being fsynced; alone, a unit
 * commits on its own, as before.
 */
final class GroupCommitWriter implements AutoCloseable {
    /** Units committed together at most, so that one commit's latency stays bounded. */
    private static final int MAX_BATCH = 64;

    private final DataSource dataSource;
    private final LinkedBlockingQueue<Unit<?>> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile boolean closed;

    private record Unit<T>(TxWork<T> work, CompletableFuture<T> done) {
    }

    GroupCommitWriter(DataSource dataSource) {
        this.dataSource = dataSource;
        this.thread = Thread.ofPlatform().name("keyhaven-sqlite-writer").daemon().start(this::run);
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

    /** Runs the batch in one transaction, each unit in its own savepoint, and completes the units after the commit. */
    private void commit(List<Unit<?>> batch) {
        List<Runnable> completions = new ArrayList<>(batch.size());
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            JdbcTx tx = new JdbcTx(connection, Dialect.SQLITE);
            try (Statement savepoints = connection.createStatement()) {
                for (Unit<?> unit : batch) {
                    completions.add(runInSavepoint(unit, tx, savepoints));
                }
                connection.commit();
            } catch (SQLException | RuntimeException | Error e) {
                connection.rollback();
                throw e;
            }
        } catch (SQLException e) {
            RuntimeException failed = Sql.translate(e, "commit");
            batch.forEach(unit -> unit.done.completeExceptionally(failed));
            return;
        }
        completions.forEach(Runnable::run);
    }

    /** Runs one unit; returns how to complete it once the batch's fate is known. */
    private static <T> Runnable runInSavepoint(Unit<T> unit, JdbcTx tx, Statement savepoints) throws SQLException {
        savepoints.execute("SAVEPOINT unit");
        try {
            T result = unit.work.run(tx);
            savepoints.execute("RELEASE unit");
            return () -> unit.done.complete(result);
        } catch (RuntimeException | Error e) {
            savepoints.execute("ROLLBACK TO unit");
            savepoints.execute("RELEASE unit");
            return () -> unit.done.completeExceptionally(e);
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
