package dev.keyhaven.server.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.server.tx.Transactor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded store's writes are committed in groups. Each unit must still behave as its own transaction: its
 * effects commit when it returns and vanish when it throws, whatever the other units of its batch do.
 */
class GroupCommitWriterIT {
    @TempDir
    Path directory;

    @Test
    void eachUnitOfABatchCommitsOrRollsBackOnItsOwn() throws Exception {
        try (Database database = Database.open(Database.embeddedUrl(directory), 4, null)) {
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
                        return transactor.write(tx -> {
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
