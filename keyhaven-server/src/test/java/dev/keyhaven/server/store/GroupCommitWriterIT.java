package dev.keyhaven.server.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
        String url = store.freshDatabase(directory);
        try (Database database = Database.open(url, 4, null)) {
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
                        case 0 -> assertThatThrownBy(outcome::get).hasCauseInstanceOf(IllegalStateException.class)
                                .hasMessageContaining("unit " + i + " fails");
                        case 1 -> assertThatThrownBy(outcome::get)
                                .hasCauseInstanceOf(Transactor.ConstraintViolation.class);
                        default -> assertThat(outcome.get()).isEqualTo(i);
                    }
                }
            }
            List<Long> committed = transactor.read(tx -> Sql.list(tx, "SELECT n FROM scratch ORDER BY n",
                    rs -> rs.getLong(1)));
            assertThat(committed).hasSize(21).allSatisfy(n -> assertThat(n % 3).isEqualTo(2));
        } finally {
            store.drop(url);
        }
    }

    @Test
    void groupedWritesQueuedDuringACommitShareTheNextTransactionOnPostgres() throws Exception {
        StoreKind store = StoreKind.POSTGRES;
        String url = store.freshDatabase(directory);
        try (Database database = Database.open(url, 4, null)) {
            Transactor transactor = database.transactor();
            CountDownLatch writerBusy = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Thread blocker = Thread.ofPlatform().start(() -> transactor.writeGrouped(tx -> {
                writerBusy.countDown();
                await(release);
                return 0;
            }));
            writerBusy.await();
            int units = 20;
            Set<Long> transactions = ConcurrentHashMap.newKeySet();
            List<Thread> submitters = new ArrayList<>();
            for (int i = 0; i < units; i++) {
                submitters.add(Thread.ofPlatform().start(() -> transactions.add(transactor.writeGrouped(
                        tx -> Sql.one(tx, "SELECT txid_current()", rs -> rs.getLong(1)).orElseThrow()))));
            }
            // Each submitter queues its unit, then waits for its commit; the writer is still busy with the blocker.
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
            while (submitters.stream().anyMatch(t -> t.getState() != Thread.State.WAITING)
                    && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            release.countDown();
            blocker.join();
            for (Thread submitter : submitters) {
                submitter.join();
            }
            assertThat(transactions).hasSize(1);
        } finally {
            store.drop(url);
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
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("cannot start another");
        }
    }

    @Test
    void writesAfterCloseAreRefused() {
        Database database = Database.open(Database.embeddedUrl(directory), 4, null);
        database.close();
        assertThatThrownBy(() -> database.transactor().write(tx -> 1)).isInstanceOf(StoreException.class)
                .hasMessageContaining("closed");
    }
}
