package dev.keyhaven.server.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.client.AuditChain;
import dev.keyhaven.client.AuditLogVerifier;
import dev.keyhaven.client.AuditLogVerifier.Entry;
import dev.keyhaven.server.audit.AuditChange;
import dev.keyhaven.server.audit.AuditEntries;
import dev.keyhaven.server.audit.AuditKind;
import dev.keyhaven.server.audit.AuditLogRepository.Head;
import dev.keyhaven.server.testing.FreshDatabase;
import dev.keyhaven.server.testing.StoreKind;
import dev.keyhaven.server.tx.Transactor;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Audit changes are appended to their organization's chain when the transaction (or the grouped batch) is about to
 * commit, not when they are made. What a unit of a batch noted must go with it: appended when it commits, gone when it
 * rolls back, whatever the other units of the batch do; and the batch's appends must make one unbroken chain.
 */
class AuditAppendIT {
    private static final String ORG = "01900000-0000-7000-8000-000000000001";
    private static final String OTHER_ORG = "01900000-0000-7000-8000-000000000002";

    @TempDir
    Path directory;

    /**
     * A batch of units, each noting two changes; every third unit fails after noting them. On SQLite the failing
     * unit's savepoint rolls back (and its changes with it), on PostgreSQL the batch runs again unit by unit: either
     * way the chain holds exactly the committed units' changes, in order, each linked to the one before.
     */
    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void aBatchAppendsExactlyItsCommittedUnitsChangesAsOneChain(StoreKind store) throws Exception {
        try (FreshDatabase fresh = FreshDatabase.open(store, directory)) {
            Database database = fresh.database();
            insertOrganization(database, ORG);
            JdbcAuditLog log = new JdbcAuditLog();
            Blocking observer = new Blocking();
            int units = 9;
            List<Future<Integer>> outcomes = new ArrayList<>();
            try (GroupCommitWriter writer = new GroupCommitWriter(database.dataSource(), database.dialect(), observer);
                    ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
                Future<Integer> blocker = holdTheWriter(writer, executor, observer);
                for (int i = 0; i < units; i++) {
                    int n = i;
                    outcomes.add(executor.submit(() -> writer.write(tx -> {
                        log.append(tx, ORG, List.of(change("activity-" + n, n), change("activity-" + n, -n)));
                        if (n % 3 == 0) {
                            throw new IllegalStateException("unit " + n + " fails after noting its changes");
                        }
                        return n;
                    })));
                    observer.queued.acquire();
                }
                observer.release.countDown();
                assertThat(blocker.get()).isEqualTo(-1);
                for (int i = 0; i < units; i++) {
                    if (i % 3 == 0) {
                        assertThatThrownBy(outcomes.get(i)::get)
                                .cause()
                                .hasMessage("unit " + i + " fails after noting its changes");
                    } else {
                        assertThat(outcomes.get(i).get()).isEqualTo(i);
                    }
                }
            }
            List<Entry> chain = database.transactor().read(tx -> AuditEntries.withContent(log.entries(tx, ORG)));
            AuditLogVerifier.verifyChain(chain);
            assertThat(chain).extracting(Entry::seq).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L);
            assertThat(chain)
                    .extracting(Entry::activityId)
                    .containsExactly(
                            "activity-1",
                            "activity-1",
                            "activity-2",
                            "activity-2",
                            "activity-4",
                            "activity-4",
                            "activity-5",
                            "activity-5",
                            "activity-7",
                            "activity-7",
                            "activity-8",
                            "activity-8");
            assertThat(chain.getFirst().prevHash()).isEqualTo(AuditChain.GENESIS);
            assertThat(chain.get(1).content()).isEqualTo("{\"n\":-1}");
            Optional<Head> head = database.transactor().read(tx -> log.head(tx, ORG));
            assertThat(head)
                    .contains(new Head(ORG, 12, Optional.of(chain.getLast().hash())));
        }
    }

    /**
     * One transaction's changes to two organizations go to each one's chain, and an organization deleted in the
     * transaction gets the changes noted before its deletion and those noted after it, in order, in one unbroken
     * chain, although its row, which holds the head, is gone at the commit.
     */
    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void changesOfAnOrganizationDeletedInTheTransactionAreAppendedBeforeItsRowGoes(StoreKind store) throws Exception {
        try (FreshDatabase fresh = FreshDatabase.open(store, directory)) {
            Database database = fresh.database();
            insertOrganization(database, ORG);
            insertOrganization(database, OTHER_ORG);
            JdbcAuditLog log = new JdbcAuditLog();
            JdbcOrganizationRepository organizations = new JdbcOrganizationRepository();
            Transactor transactor = database.transactor();
            transactor.write(tx -> {
                log.append(tx, OTHER_ORG, List.of(change("in-other", 1)));
                log.append(tx, ORG, List.of(change("before-deletion", 1), change("before-deletion", 2)));
                organizations.delete(tx, ORG);
                // Noted after the row went (as the deleting activity's outcome is): linked to the head kept then.
                log.append(tx, ORG, List.of(change("after-deletion", 3)));
                return null;
            });
            List<Entry> deleted = transactor.read(tx -> AuditEntries.withContent(log.entries(tx, ORG)));
            AuditLogVerifier.verifyChain(deleted);
            assertThat(deleted)
                    .extracting(Entry::activityId)
                    .containsExactly("before-deletion", "before-deletion", "after-deletion");
            assertThat(deleted).extracting(Entry::seq).containsExactly(1L, 2L, 3L);
            Optional<Head> gone = transactor.read(tx -> log.head(tx, ORG));
            assertThat(gone).isEmpty();
            List<Entry> other = transactor.read(tx -> AuditEntries.withContent(log.entries(tx, OTHER_ORG)));
            assertThat(other).extracting(Entry::activityId).containsExactly("in-other");
            Optional<Head> otherHead = transactor.read(tx -> log.head(tx, OTHER_ORG));
            assertThat(otherHead)
                    .contains(
                            new Head(OTHER_ORG, 1, Optional.of(other.getFirst().hash())));
        }
    }

    /**
     * V17 lets an entry keep only its content's hash: entries written before it keep their content and still verify,
     * and the table refuses an entry with neither content nor hash, or with both.
     */
    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void entriesWrittenBeforeV17KeepTheirContentAndAnEntryMustKeepExactlyOneOfContentAndHash(StoreKind store)
            throws Exception {
        String url = store.freshDatabase(directory);
        try {
            Flyway.configure()
                    .dataSource(url, null, null)
                    .locations("classpath:db/migration")
                    .target("16")
                    .load()
                    .migrate();
            String content = "{\"status\":\"ACTIVITY_STATUS_COMPLETED\"}";
            String hash = AuditChain.entryHash(ORG, 1, "ACTIVITY_OUTCOME", "a-1", "a-1", content, AuditChain.GENESIS);
            try (Connection db = DriverManager.getConnection(url);
                    Statement statement = db.createStatement()) {
                statement.executeUpdate("INSERT INTO organizations (id, name, root_quorum_threshold, created_at, "
                        + "updated_at, audit_seq, audit_head) VALUES ('" + ORG + "', 'o', 1, 0, 0, 1, '" + hash + "')");
                statement.executeUpdate("INSERT INTO audit_entries VALUES ('" + ORG + "', 1, 'ACTIVITY_OUTCOME', "
                        + "'a-1', 'a-1', '" + content + "', '" + AuditChain.GENESIS + "', '" + hash + "')");
            }
            try (Database database = Database.open(url, 4, null)) {
                JdbcAuditLog log = new JdbcAuditLog();
                List<Entry> chain = database.transactor().read(tx -> AuditEntries.withContent(log.entries(tx, ORG)));
                AuditLogVerifier.verifyChain(chain);
                assertThat(chain).extracting(Entry::content).containsExactly(content);
                for (String values : List.of("NULL, NULL", "'{}', '" + "00".repeat(32) + "'")) {
                    assertThatThrownBy(() -> database.transactor()
                                    .write(tx -> Sql.update(
                                            tx,
                                            "INSERT INTO audit_entries (organization_id, seq, kind, activity_id, "
                                                    + "record_id, content, content_hash, prev_hash, hash) VALUES ('"
                                                    + ORG + "', 2, 'VOTE', 'a-1', 'v-1', " + values + ", 'p', 'h')")))
                            .as(values)
                            .isInstanceOf(StoreException.class)
                            .message()
                            .containsIgnoringCase("check constraint");
                }
            }
        } finally {
            store.drop(url);
        }
    }

    private static AuditChange change(String activityId, int n) {
        SortedMap<String, Object> columns = new TreeMap<>();
        columns.put("n", n);
        return new AuditChange(AuditKind.ACTIVITY_OUTCOME, activityId, activityId, columns);
    }

    private static void insertOrganization(Database database, String id) {
        database.transactor()
                .write(tx -> Sql.update(
                        tx,
                        "INSERT INTO organizations (id, name, root_quorum_threshold, created_at, updated_at) "
                                + "VALUES (?, ?, 1, 0, 0)",
                        id,
                        "organization " + id));
    }

    /** Queues a unit that holds the writer's thread until {@code observer.release}; returns once it runs. */
    private static Future<Integer> holdTheWriter(GroupCommitWriter writer, ExecutorService executor, Blocking observer)
            throws InterruptedException {
        CountDownLatch writerBusy = new CountDownLatch(1);
        Future<Integer> blocker = executor.submit(() -> writer.write(tx -> {
            writerBusy.countDown();
            try {
                observer.release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return -1;
        }));
        writerBusy.await();
        observer.queued.acquire();
        return blocker;
    }

    /** Lets the test wait until its units are queued behind a unit that holds the writer. */
    private static final class Blocking implements GroupCommitWriter.Observer {
        final Semaphore queued = new Semaphore(0);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public void unitQueued() {
            queued.release();
        }
    }
}
