package dev.keyhaven.server.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.server.testing.FreshDatabase;
import dev.keyhaven.server.testing.StoreKind;
import dev.keyhaven.server.tx.Transactor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The embedded store's writes, and PostgreSQL's grouped writes, are committed in groups. Each unit must still behave
 * as its own transaction: its effects commit when it returns and vanish when it throws, whatever the other units of
 * its batch do.
 */
class GroupCommitWriterIT {
    @TempDir
    Path directory;

    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void eachUnitOfABatchCommitsOrRollsBackOnItsOwn(StoreKind store) throws Exception {
        try (FreshDatabase fresh = FreshDatabase.open(store, directory)) {
            Database database = fresh.database();
            Transactor transactor = database.transactor();
            transactor.write(tx -> Sql.update(tx, "CREATE TABLE scratch (n INTEGER PRIMARY KEY)"));
            int units = 64;
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> outcomes = new ArrayList<>();
            try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < units; i++) {
                    int n = i;
                    outcomes.add(executor.submit(() -> {
                        start.await();
                        // Every write is grouped on SQLite; on PostgreSQL only writeGrouped is.
                        return transactor.writeGrouped(tx -> {
                            Sql.update(tx, "INSERT INTO scratch (n) VALUES (?)", n);
                            if (n % 3 == 0) {
                                throw new IllegalStateException("unit " + n + " fails after writing");
                            }
                            if (n % 3 == 1) {
                                // The primary key is taken by this very unit: a constraint violation.
                                Sql.update(tx, "INSERT INTO scratch (n) VALUES (?)", n);
                            }
                            return n;
                        });
                    }));
                }
                start.countDown();
                for (int i = 0; i < units; i++) {
                    Future<Integer> outcome = outcomes.get(i);
                    switch (i % 3) {
                        case 0 ->
                            assertThatThrownBy(outcome::get)
                                    .cause()
                                    .isExactlyInstanceOf(IllegalStateException.class)
                                    .hasMessage("unit " + i + " fails after writing");
                        case 1 ->
                            assertThatThrownBy(outcome::get).hasCauseInstanceOf(Transactor.ConstraintViolation.class);
                        default -> assertThat(outcome.get()).isEqualTo(i);
                    }
                }
            }
            List<Long> committed =
                    transactor.read(tx -> Sql.list(tx, "SELECT n FROM scratch ORDER BY n", rs -> rs.getLong(1)));
            assertThat(committed).hasSize(21).allSatisfy(n -> assertThat(n % 3).isEqualTo(2));
        }
    }

    /**
     * Units queued while the writer is busy are committed by one transaction: the observer sees one commit for all
     * of them, and on PostgreSQL they all ran in the same transaction id. The writer is held busy by a unit that
     * waits on a latch, and the test waits until every unit is queued, so the batch's make-up is certain.
     */
    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void unitsQueuedWhileTheWriterIsBusyShareOneCommit(StoreKind store) throws Exception {
        try (FreshDatabase fresh = FreshDatabase.open(store, directory)) {
            Database database = fresh.database();
            database.transactor().write(tx -> Sql.update(tx, "CREATE TABLE log (n INTEGER NOT NULL)"));
            RecordingObserver observer = new RecordingObserver();
            int units = 20;
            Set<Long> transactionIds = ConcurrentHashMap.newKeySet();
            List<Future<Integer>> outcomes = new ArrayList<>();
            try (GroupCommitWriter writer = new GroupCommitWriter(database.dataSource(), database.dialect(), observer);
                    ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
                Future<Integer> blocker = holdTheWriter(writer, executor, observer);
                for (int i = 0; i < units; i++) {
                    int n = i;
                    outcomes.add(executor.submit(() -> writer.write(tx -> {
                        Sql.update(tx, "INSERT INTO log (n) VALUES (?)", n);
                        if (store == StoreKind.POSTGRES) {
                            transactionIds.add(Sql.one(tx, "SELECT txid_current()", rs -> rs.getLong(1))
                                    .orElseThrow());
                        }
                        return n;
                    })));
                }
                observer.queued.acquire(units);
                observer.release.countDown();
                assertThat(blocker.get()).isEqualTo(-1);
                for (int i = 0; i < units; i++) {
                    assertThat(outcomes.get(i).get()).isEqualTo(i);
                }
            }
            assertThat(observer.events).containsExactly("committed 1", "committed " + units);
            if (store == StoreKind.POSTGRES) {
                assertThat(transactionIds).hasSize(1);
            }
            assertThat(loggedUnits(database))
                    .containsExactlyElementsOf(
                            java.util.stream.LongStream.range(0, units).boxed().toList());
        }
    }

    /**
     * A unit that fails inside a batch takes only its own effects with it, and only its own caller sees the failure.
     * On PostgreSQL the batch is rolled back and every unit runs again alone: the units before the failing one ran
     * twice but committed once, the failing one fails again, the ones after it ran once. On SQLite the failing unit's
     * savepoint is rolled back and the rest of the batch commits together.
     */
    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void aUnitFailingInABatchFailsOnlyItsCallerAndTheOthersCommitOnce(StoreKind store) throws Exception {
        try (FreshDatabase fresh = FreshDatabase.open(store, directory)) {
            Database database = fresh.database();
            database.transactor().write(tx -> {
                Sql.update(tx, "CREATE TABLE log (n INTEGER NOT NULL)");
                Sql.update(tx, "CREATE TABLE taken (n INTEGER PRIMARY KEY)");
                return Sql.update(tx, "INSERT INTO taken (n) VALUES (2)");
            });
            RecordingObserver observer = new RecordingObserver();
            int units = 5;
            int failing = 2;
            AtomicIntegerArray runs = new AtomicIntegerArray(units);
            List<Future<Integer>> outcomes = new ArrayList<>();
            try (GroupCommitWriter writer = new GroupCommitWriter(database.dataSource(), database.dialect(), observer);
                    ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
                Future<Integer> blocker = holdTheWriter(writer, executor, observer);
                for (int i = 0; i < units; i++) {
                    int n = i;
                    outcomes.add(executor.submit(() -> writer.write(tx -> {
                        runs.incrementAndGet(n);
                        Sql.update(tx, "INSERT INTO log (n) VALUES (?)", n);
                        if (n == failing) {
                            // Taken already: a constraint violation, which aborts a PostgreSQL transaction.
                            Sql.update(tx, "INSERT INTO taken (n) VALUES (?)", n);
                        }
                        return n;
                    })));
                    // One at a time, so the batch holds the units in this order.
                    observer.queued.acquire();
                }
                observer.release.countDown();
                assertThat(blocker.get()).isEqualTo(-1);
                for (int i = 0; i < units; i++) {
                    if (i == failing) {
                        assertThatThrownBy(outcomes.get(i)::get)
                                .hasCauseInstanceOf(Transactor.ConstraintViolation.class);
                    } else {
                        assertThat(outcomes.get(i).get()).isEqualTo(i);
                    }
                }
            }
            if (store == StoreKind.POSTGRES) {
                assertThat(observer.events)
                        .containsExactly(
                                "committed 1",
                                "rolled back " + units,
                                "alone committed",
                                "alone committed",
                                "alone rolled back",
                                "alone committed",
                                "alone committed");
                assertThat(runs).containsExactly(2, 2, 2, 1, 1);
            } else {
                assertThat(observer.events).containsExactly("committed 1", "committed " + units);
                assertThat(runs).containsExactly(1, 1, 1, 1, 1);
            }
            // Each other unit's row exactly once: none was lost with the rolled-back batch, none committed twice.
            assertThat(loggedUnits(database)).containsExactly(0L, 1L, 3L, 4L);
        }
    }

    /** Queues a unit that holds the writer's thread until {@code observer.release}; returns once it runs. */
    private static Future<Integer> holdTheWriter(
            GroupCommitWriter writer, ExecutorService executor, RecordingObserver observer)
            throws InterruptedException {
        CountDownLatch writerBusy = new CountDownLatch(1);
        Future<Integer> blocker = executor.submit(() -> writer.write(tx -> {
            writerBusy.countDown();
            await(observer.release);
            return -1;
        }));
        writerBusy.await();
        observer.queued.acquire();
        return blocker;
    }

    private static List<Long> loggedUnits(Database database) {
        return database.transactor().read(tx -> Sql.list(tx, "SELECT n FROM log ORDER BY n", rs -> rs.getLong(1)));
    }

    /** Records what the writer did, in order, and lets the test wait for units to be queued. */
    private static final class RecordingObserver implements GroupCommitWriter.Observer {
        final List<String> events = java.util.Collections.synchronizedList(new ArrayList<>());
        final Semaphore queued = new Semaphore(0);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public void unitQueued() {
            queued.release();
        }

        @Override
        public void batchCommitted(int units) {
            events.add("committed " + units);
        }

        @Override
        public void batchRolledBack(int units) {
            events.add("rolled back " + units);
        }

        @Override
        public void ranAlone(boolean committed) {
            events.add(committed ? "alone committed" : "alone rolled back");
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aWriteCannotStartAnotherFromInside() {
        try (Database database = Database.open(Database.embeddedUrl(directory), 4, null)) {
            Transactor transactor = database.transactor();
            assertThatThrownBy(() -> transactor.write(tx -> transactor.write(inner -> 1)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("a write transaction cannot start another one");
        }
    }

    @Test
    void writesAfterCloseAreRefused() {
        Database database = Database.open(Database.embeddedUrl(directory), 4, null);
        database.close();
        assertThatThrownBy(() -> database.transactor().write(tx -> 1))
                .isInstanceOf(StoreException.class)
                .hasMessage("the database is closed");
    }
}
