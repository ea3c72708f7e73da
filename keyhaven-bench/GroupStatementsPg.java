/*
 * What one statement text for every group size would save PostgreSQL (issue 24), measured on the real schema. A
 * grouped write on PostgreSQL inserts its signatures' activities, votes and audit entries in one statement whose VALUES
 * lists have as many rows as the group has signatures, so each group size is a text of its own, which PostgreSQL
 * parses, analyses and plans again until pgjdbc has run it five times and prepared it on the server. The other way
 * binds each column as one array and inserts unnest(arrays): one text for every size, planned once. Tried in the
 * server and not kept (BENCHMARKS.md, seventh session): the planning it saves is spent again on the arrays.
 *
 *   java --enable-native-access=ALL-UNNAMED -cp keyhaven-server/target/keyhaven.jar \
 *       keyhaven-bench/GroupStatementsPg.java [groups per round, 400] [mean group size, 16]
 *
 * A new database on 127.0.0.1:5432 (user postgres) with Keyhaven's migrations, dropped at the end. Group sizes are
 * drawn from 1 to twice the mean less one, the same sizes for both ways. Rounds alternate the two ways (A B B A);
 * each group commits. Measured: the PostgreSQL backend's CPU (from /proc, so PostgreSQL must run on this machine; in
 * clock ticks of 10 ms, so give it a few seconds) and this thread's, per signature.
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
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;

public class GroupStatementsPg {
    // The server's columns (JdbcActivityRepository's COLUMNS and VOTE_COLUMNS, JdbcAuditLog's ENTRY_COLUMNS), with
    // each one's type for the arrays.
    static final String[][] ACTIVITY = {
        {"id", "text"}, {"organization_id", "text"}, {"type", "text"}, {"status", "text"}, {"intent", "text"},
        {"result", "text"}, {"failure_code", "text"}, {"failure_message", "text"},
        {"failure_reported_as_error", "bool"},
        {"fingerprint", "text"}, {"created_at", "int8"}, {"updated_at", "int8"}, {"app_proofs", "text"}
    };
    static final String[][] VOTE = {
        {"id", "text"}, {"activity_id", "text"}, {"organization_id", "text"}, {"user_id", "text"},
        {"user_snapshot", "text"}, {"selection", "text"}, {"message", "text"}, {"public_key", "text"},
        {"signature", "text"}, {"scheme", "text"}, {"created_at", "int8"}, {"evaluation_id", "text"},
        {"evaluation", "text"}
    };
    static final String[][] ENTRY = {
        {"organization_id", "text"}, {"seq", "int8"}, {"kind", "text"}, {"activity_id", "text"},
        {"record_id", "text"}, {"content", "text"}, {"content_hash", "text"}, {"prev_hash", "text"}, {"hash", "text"}
    };
    // The rows are GroupInserts.java's (the launcher compiles the scripts beside this one): a sign_raw_payload's sizes.
    static final String ORGANIZATION = GroupInserts.ORGANIZATION;
    static final Object NULL = GroupInserts.NULL;
    static long seq;

    public static void main(String[] args) throws Exception {
        int groups = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        int mean = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        String name = "keyhaven_group_statements_" + ProcessHandle.current().pid();
        String admin = "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres";
        try (Connection c = DriverManager.getConnection(admin); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        String url = "jdbc:postgresql://127.0.0.1:5432/" + name + "?user=postgres";
        try {
            Database.open(url, 1, null).close();
            ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
            try (Connection connection = DriverManager.getConnection(url)) {
                connection.setAutoCommit(false);
                int backend;
                try (Statement s = connection.createStatement();
                        ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
                    rs.next();
                    backend = rs.getInt(1);
                }
                Random random = new Random(24);
                int[] sizes = new int[groups];
                for (int g = 0; g < groups; g++) {
                    sizes[g] = 1 + random.nextInt(2 * mean - 1);
                }
                run(connection, false, sizes, cpu, backend); // warm-up of both ways
                run(connection, true, sizes, cpu, backend);
                long[][] spent = new long[2][2];
                int[] order = {0, 1, 1, 0, 0, 1, 1, 0};
                for (int way : order) {
                    long[] one = run(connection, way == 1, sizes, cpu, backend);
                    spent[way][0] += one[0];
                    spent[way][1] += one[1];
                }
                long signatures = 0;
                for (int size : sizes) {
                    signatures += size;
                }
                signatures *= order.length / 2;
                System.out.printf(
                        "per signature (%d each way, groups of 1 to %d): VALUES per size: PostgreSQL %.1f µs, "
                                + "this thread %.1f µs; unnest of arrays: PostgreSQL %.1f µs, this thread %.1f µs%n",
                        signatures,
                        2 * mean - 1,
                        spent[0][0] / 1_000.0 / signatures,
                        spent[0][1] / 1_000.0 / signatures,
                        spent[1][0] / 1_000.0 / signatures,
                        spent[1][1] / 1_000.0 / signatures);
            }
        } finally {
            try (Connection c = DriverManager.getConnection(admin); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            }
        }
    }

    /** Writes one group per size; returns the nanoseconds of CPU the backend and this thread spent writing them. */
    static long[] run(Connection connection, boolean arrays, int[] sizes, ThreadMXBean cpu, int backend)
            throws Exception {
        long backendBefore = backendNanos(backend);
        long threadSpent = 0;
        for (int size : sizes) {
            List<List<Object>> activities = new ArrayList<>(size);
            List<List<Object>> votes = new ArrayList<>(size);
            List<List<Object>> entries = new ArrayList<>(2 * size);
            for (int i = 0; i < size; i++) {
                String activity = UUID.randomUUID().toString();
                List<Object> vote = GroupInserts.voteRow(activity);
                activities.add(GroupInserts.activityRow(activity));
                votes.add(vote);
                entries.add(entryRow(activity, activity));
                entries.add(entryRow(activity, (String) vote.getFirst()));
            }
            long before = cpu.getCurrentThreadCpuTime();
            if (arrays) {
                try (PreparedStatement statement = connection.prepareStatement(unnestStatement())) {
                    int index = 1;
                    for (Object[] column : columns(activities, ACTIVITY)) {
                        statement.setObject(index++, column);
                    }
                    for (Object[] column : columns(votes, VOTE)) {
                        statement.setObject(index++, column);
                    }
                    for (Object[] column : columns(entries, ENTRY)) {
                        statement.setObject(index++, column);
                    }
                    statement.executeUpdate();
                }
            } else {
                try (PreparedStatement statement = connection.prepareStatement(valuesStatement(size))) {
                    int index = 1;
                    for (List<List<Object>> rows : List.of(activities, votes, entries)) {
                        for (List<Object> row : rows) {
                            for (Object value : row) {
                                if (value == NULL) {
                                    statement.setNull(index++, Types.NULL);
                                } else {
                                    statement.setObject(index++, value);
                                }
                            }
                        }
                    }
                    statement.executeUpdate();
                }
            }
            connection.commit();
            threadSpent += cpu.getCurrentThreadCpuTime() - before;
        }
        return new long[] {backendNanos(backend) - backendBefore, threadSpent};
    }

    static String valuesStatement(int size) {
        return "WITH activity AS (" + values("activities", ACTIVITY, size) + "), vote AS ("
                + values("votes", VOTE, size) + ") " + values("audit_entries", ENTRY, 2 * size);
    }

    static String values(String table, String[][] columns, int rows) {
        String row = "(" + String.join(", ", Collections.nCopies(columns.length, "?")) + ")";
        return "INSERT INTO " + table + " (" + names(columns) + ") VALUES "
                + String.join(", ", Collections.nCopies(rows, row));
    }

    static String unnestStatement() {
        return "WITH activity AS (" + unnest("activities", ACTIVITY) + "), vote AS (" + unnest("votes", VOTE) + ") "
                + unnest("audit_entries", ENTRY);
    }

    static String unnest(String table, String[][] columns) {
        List<String> arrays = new ArrayList<>();
        for (String[] column : columns) {
            arrays.add("?::" + column[1] + "[]");
        }
        return "INSERT INTO " + table + " (" + names(columns) + ") SELECT * FROM unnest(" + String.join(", ", arrays)
                + ")";
    }

    static String names(String[][] columns) {
        List<String> names = new ArrayList<>();
        for (String[] column : columns) {
            names.add(column[0]);
        }
        return String.join(", ", names);
    }

    /** The rows' values column by column, as arrays of the column's Java type. */
    static List<Object[]> columns(List<List<Object>> rows, String[][] types) {
        List<Object[]> columns = new ArrayList<>();
        for (int c = 0; c < types.length; c++) {
            Object[] column = switch (types[c][1]) {
                case "int8" -> new Long[rows.size()];
                case "bool" -> new Boolean[rows.size()];
                default -> new String[rows.size()];
            };
            for (int r = 0; r < rows.size(); r++) {
                Object value = rows.get(r).get(c);
                column[r] = value == NULL ? null : value;
            }
            columns.add(column);
        }
        return columns;
    }

    /** utime + stime of a process, in nanoseconds (clock ticks of 10 ms). */
    static long backendNanos(int pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10_000_000L;
    }

    static List<Object> entryRow(String activity, String record) {
        return List.of(
                ORGANIZATION,
                ++seq,
                "ACTIVITY_RECORDED",
                activity,
                record,
                NULL,
                GroupInserts.text(64),
                GroupInserts.text(64),
                GroupInserts.text(64));
    }
}
