package dev.keyhaven.server.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.client.AuditLogVerifier;
import dev.keyhaven.client.AuditLogVerifier.Entry;
import dev.keyhaven.policy.engine.Outcome;
import dev.keyhaven.server.activity.Activity;
import dev.keyhaven.server.activity.ActivityRepository.Prepared;
import dev.keyhaven.server.activity.ActivityStatus;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.Failure;
import dev.keyhaven.server.activity.PolicyEvaluation;
import dev.keyhaven.server.activity.Vote;
import dev.keyhaven.server.activity.VoteSelection;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.JsonMappers;
import dev.keyhaven.server.audit.AuditEntries;
import dev.keyhaven.server.testing.FreshDatabase;
import dev.keyhaven.server.testing.StoreKind;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Signatures' records written at a state version ({@code insertAtStateVersion}): on PostgreSQL deferred to the commit
 * and inserted together in one statement with their audit entries, on SQLite one by one. What is read back must be
 * what was written, value for value (text that needs escaping, NULLs, the flag, microseconds), and the chain must
 * verify; a record at a version its organization has left fails its transaction, which writes nothing.
 */
class GroupedRecordsIT {
    private static final String ORG = "01900000-0000-7000-8000-0000000000a1";
    private static final ObjectMapper JSON = JsonMappers.strict();
    private static final Instant AT = Instant.parse("2026-11-27T10:15:30.123456Z");

    @TempDir
    Path directory;

    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void recordsOfOneTransactionAreReadBackValueForValueAndTheirChainVerifies(StoreKind store) {
        try (FreshDatabase fresh = FreshDatabase.open(store, directory)) {
            Database database = fresh.database();
            insertOrganization(database);
            JdbcAuditLog log = new JdbcAuditLog();
            JdbcActivityRepository activities = new JdbcActivityRepository(JSON, log);
            List<Activity> written = List.of(
                    activity(1, "plain", Optional.empty(), Optional.empty()),
                    activity(
                            2,
                            "quotes \" backslash \\ newline \n tab \t braces {} commas , é 𝄞 \u0001",
                            Optional.of(new Failure(ErrorCode.BAD_REQUEST, "a \"quoted\" failure", false)),
                            Optional.of(new PolicyEvaluation("evaluation-2", List.of(), Outcome.ALLOW))),
                    activity(
                            3,
                            "{\"looks\":[\"like\",\"an\",\"array\"]}",
                            Optional.of(new Failure(ErrorCode.REQUEST_NOT_AUTHORIZED, "", true)),
                            Optional.empty()));
            List<Prepared> prepared = written.stream().map(activities::prepare).toList();
            long version = stateVersion(database);
            database.transactor().write(tx -> {
                prepared.forEach(p -> activities.insertAtStateVersion(tx, p, version, MovedOn::new));
                return null;
            });

            for (Activity activity : written) {
                Optional<Activity> read = database.transactor().read(tx -> activities.find(tx, ORG, activity.id()));
                assertThat(read).contains(activity);
            }
            List<Entry> chain = database.transactor().read(tx -> AuditEntries.withContent(log.entries(tx, ORG)));
            AuditLogVerifier.verifyChain(chain);
            assertThat(chain).extracting(Entry::seq).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
            assertThat(chain)
                    .extracting(Entry::activityId)
                    .containsExactly(
                            "activity-1", "activity-1", "activity-2", "activity-2", "activity-3", "activity-3");
        }
    }

    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void recordsWrittenAtAVersionTheOrganizationHasLeftAreNotWrittenAtAll(StoreKind store) {
        try (FreshDatabase fresh = FreshDatabase.open(store, directory)) {
            Database database = fresh.database();
            insertOrganization(database);
            JdbcAuditLog log = new JdbcAuditLog();
            JdbcActivityRepository activities = new JdbcActivityRepository(JSON, log);
            Prepared atVersion = activities.prepare(activity(1, "one", Optional.empty(), Optional.empty()));
            Prepared atStale = activities.prepare(activity(2, "two", Optional.empty(), Optional.empty()));
            long current = stateVersion(database);

            assertThatThrownBy(() -> database.transactor().write(tx -> {
                        activities.insertAtStateVersion(tx, atVersion, current, MovedOn::new);
                        activities.insertAtStateVersion(tx, atStale, current - 1, MovedOn::new);
                        return null;
                    }))
                    .isInstanceOf(MovedOn.class);
            // Not even the record at the current version: the transaction is one.
            Optional<Activity> first = database.transactor().read(tx -> activities.find(tx, ORG, "activity-1"));
            assertThat(first).isEmpty();
            List<?> entries = database.transactor().read(tx -> log.entries(tx, ORG));
            assertThat(entries).isEmpty();
        }
    }

    private static Activity activity(
            int n, String text, Optional<Failure> failure, Optional<PolicyEvaluation> evaluation) {
        ObjectNode intent = JSON.createObjectNode();
        intent.putObject("signRawPayloadIntentV2").put("payload", text);
        ObjectNode result = JSON.createObjectNode();
        result.putObject("signRawPayloadResult").put("r", text + n);
        ObjectNode user = JSON.createObjectNode().put("userId", "user-" + n).put("userName", text);
        Instant at = AT.plusNanos(n * 1_000L);
        Vote vote = new Vote(
                "vote-" + n,
                "activity-" + n,
                "user-" + n,
                user,
                VoteSelection.APPROVED,
                "{\"body\":\"" + n + "\"}",
                "02" + "ab".repeat(32),
                "30" + "cd".repeat(70),
                "SIGNATURE_SCHEME_TK_API_P256",
                at,
                evaluation);
        return new Activity(
                "activity-" + n,
                ORG,
                ActivityType.SIGN_RAW_PAYLOAD_V2,
                failure.isPresent() ? ActivityStatus.FAILED : ActivityStatus.COMPLETED,
                intent,
                result,
                failure,
                String.format("%012x", 1_700_000_000_000L + n) + "ef".repeat(32),
                List.of(vote),
                at,
                at);
    }

    private static long stateVersion(Database database) {
        return database.transactor()
                .read(tx -> Sql.one(
                                tx, "SELECT state_version FROM organizations WHERE id = ?", rs -> rs.getLong(1), ORG)
                        .orElseThrow());
    }

    private static void insertOrganization(Database database) {
        database.transactor()
                .write(tx -> Sql.update(
                        tx,
                        "INSERT INTO organizations (id, name, root_quorum_threshold, created_at, updated_at) "
                                + "VALUES (?, ?, 1, 0, 0)",
                        ORG,
                        "organization"));
    }

    /** What a record written at a version its organization has left fails with. */
    private static final class MovedOn extends RuntimeException {
        MovedOn() {
            super("the organization moved on");
        }
    }
}
