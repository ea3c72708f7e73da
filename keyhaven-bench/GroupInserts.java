/*
 * What "one insert per table per group" would save the SQLite writer (issue 24), measured on the real schema before
 * anyone builds it: the writer's CPU per signature for a group of signatures' records written as the writer does now
 * (a savepoint per signature around its activity's insert, its vote's insert and the state version's read) against
 * the same records written as one multi-row insert per table and one read for the group.
 *
 *   java --enable-native-access=ALL-UNNAMED -cp keyhaven-server/target/keyhaven.jar keyhaven-bench/GroupInserts.java \
 *       [groups per round, 400] [group size, 64]
 *
 * The database is a new embedded store (Keyhaven's migrations), on the same settings as the server's pool (WAL,
 * synchronous=FULL, temp_store=MEMORY, no generated keys), with foreign keys off so that both ways need no
 * organization. Rows have the sizes of a sign_raw_payload's; ids are random, fingerprints lead with the time, as the
 * server's. Rounds alternate the two ways (A B B A), so the tables grow under both alike; each group commits. The
 * thread's CPU time is measured, not the wall clock: the commit's fsync waits are the same for both ways.
 */
import dev.keyhaven.server.store.Database;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

public class GroupInserts {
    // The server's inserts' columns (JdbcActivityRepository's COLUMNS and VOTE_COLUMNS, which a script outside its
    // package cannot read). A column added NOT NULL without them fails this script in .ci/run.
    static final String ACTIVITY = "id, organization_id, type, status, intent, result, failure_code, "
            + "failure_message, failure_reported_as_error, fingerprint, created_at, updated_at, app_proofs";
    static final String VOTE = "id, activity_id, organization_id, user_id, user_snapshot, selection, message, "
            + "public_key, signature, scheme, created_at, evaluation_id, evaluation";
    static final String ORGANIZATION = UUID.randomUUID().toString();

    public static void main(String[] args) throws Exception {
        int groups = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        int size = args.length > 1 ? Integer.parseInt(args[1]) : 64;
        Path directory = Files.createTempDirectory("keyhaven-group-inserts");
        String url = Database.embeddedUrl(directory);
        Database.open(url, 1, null).close();
        Properties settings = new Properties();
        settings.setProperty("journal_mode", "WAL");
        settings.setProperty("synchronous", "FULL");
        settings.setProperty("temp_store", "MEMORY");
        settings.setProperty("foreign_keys", "false");
        settings.setProperty("jdbc.get_generated_keys", "false");
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        try (Connection connection = DriverManager.getConnection(url, settings)) {
            connection.setAutoCommit(false);
            Ways ways = new Ways(connection, size);
            ways.run(false, groups, cpu); // warm-up of both ways
            ways.run(true, groups, cpu);
            long[] cpuNanos = new long[2];
            int[] order = {0, 1, 1, 0, 0, 1, 1, 0};
            for (int way : order) {
                cpuNanos[way] += ways.run(way == 1, groups, cpu);
            }
            double perSignature = 1_000.0 * groups * size * order.length / 2;
            System.out.printf(
                    "per signature, the writer's CPU: one savepoint and two inserts each %.1f µs, "
                            + "one insert per table per group %.1f µs (groups of %d, %d signatures each way)%n",
                    cpuNanos[0] / perSignature,
                    cpuNanos[1] / perSignature,
                    size,
                    groups * size * order.length / 2);
        } finally {
            try (Stream<Path> files = Files.walk(directory)) {
                files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
            }
        }
    }

    /** The two ways of writing a group's records, on one connection, with its statements kept as the server does. */
    record Ways(Connection connection, int size, Map<String, PreparedStatement> prepared) {
        Ways(Connection connection, int size) {
            this(connection, size, new HashMap<>());
        }

        PreparedStatement statement(String sql) throws SQLException {
            PreparedStatement statement = prepared.get(sql);
            if (statement == null) {
                statement = connection.prepareStatement(sql);
                prepared.put(sql, statement);
            }
            return statement;
        }

        /** Writes {@code groups} groups; returns the thread's CPU time spent writing them (not making the rows). */
        long run(boolean grouped, int groups, ThreadMXBean cpu) throws SQLException {
            long writing = 0;
            for (int g = 0; g < groups; g++) {
                List<List<Object>> activities = new ArrayList<>(size);
                List<List<Object>> votes = new ArrayList<>(size);
                for (int i = 0; i < size; i++) {
                    String activity = UUID.randomUUID().toString();
                    activities.add(activityRow(activity));
                    votes.add(voteRow(activity));
                }
                long before = cpu.getCurrentThreadCpuTime();
                if (grouped) {
                    update(insert("activities", ACTIVITY, size), flatten(activities));
                    update(insert("votes", VOTE, size), flatten(votes));
                    stateVersion();
                } else {
                    for (int i = 0; i < size; i++) {
                        execute("SAVEPOINT unit");
                        update(insert("activities", ACTIVITY, 1), activities.get(i));
                        update(insert("votes", VOTE, 1), votes.get(i));
                        stateVersion();
                        execute("RELEASE unit");
                    }
                }
                connection.commit();
                writing += cpu.getCurrentThreadCpuTime() - before;
            }
            return writing;
        }

        void stateVersion() throws SQLException {
            PreparedStatement read = statement("SELECT state_version FROM organizations WHERE id = ?");
            read.setString(1, ORGANIZATION);
            try (ResultSet rows = read.executeQuery()) {
                rows.next();
            }
        }

        void execute(String sql) throws SQLException {
            statement(sql).executeUpdate();
        }

        void update(String sql, List<Object> values) throws SQLException {
            PreparedStatement statement = statement(sql);
            for (int i = 0; i < values.size(); i++) {
                if (values.get(i) == NULL) {
                    statement.setNull(i + 1, Types.NULL);
                } else {
                    statement.setObject(i + 1, values.get(i));
                }
            }
            statement.executeUpdate();
            statement.clearParameters();
        }
    }

    static String insert(String table, String columns, int rows) {
        String row = "(" + String.join(", ", Collections.nCopies(columns.split(", ").length, "?")) + ")";
        return "INSERT INTO " + table + " (" + columns + ") VALUES "
                + String.join(", ", Collections.nCopies(rows, row));
    }

    static List<Object> flatten(List<List<Object>> rows) {
        List<Object> values = new ArrayList<>();
        rows.forEach(values::addAll);
        return values;
    }

    static List<Object> activityRow(String id) {
        long now = System.currentTimeMillis();
        return List.of(
                id,
                ORGANIZATION,
                "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
                "ACTIVITY_STATUS_COMPLETED",
                text(420),
                text(330),
                NULL,
                NULL,
                NULL,
                String.format("%012x", System.nanoTime() & 0xffffffffffffL) + text(64),
                now,
                now,
                NULL);
    }

    static List<Object> voteRow(String activity) {
        return List.of(
                UUID.randomUUID().toString(),
                activity,
                ORGANIZATION,
                UUID.randomUUID().toString(),
                text(520),
                "VOTE_SELECTION_APPROVED",
                text(420),
                text(66),
                text(144),
                "SIGNATURE_SCHEME_TK_API_P256",
                System.currentTimeMillis(),
                UUID.randomUUID().toString(),
                text(260));
    }

    /** SQL NULL, which List.of does not take. */
    static final Object NULL = new Object();

    static String text(int length) {
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append((char) ('a' + ThreadLocalRandom.current().nextInt(26)));
        }
        return text.toString();
    }
}
