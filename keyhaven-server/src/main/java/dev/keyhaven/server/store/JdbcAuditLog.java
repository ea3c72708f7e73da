package dev.keyhaven.server.store;

import dev.keyhaven.client.AuditChain;
import dev.keyhaven.client.AuditLogVerifier.SignedHead;
import dev.keyhaven.server.audit.AuditChange;
import dev.keyhaven.server.audit.AuditLogRepository;
import dev.keyhaven.server.tx.Tx;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import tools.jackson.databind.ObjectMapper;

/**
 * {@code audit_entries}, {@code audit_signed_heads} and the chain head on {@code organizations}. Changes are appended
 * at the end of their transaction: {@link #append} only notes them, and {@link #appendPending}, which the store runs
 * just before the commit, takes each organization's row lock to read its head (the lock that advancing the state
 * version takes too), inserts all the transaction's entries for it at once and records the new head. So the lock is
 * held from the append to the commit, not for the whole transaction, and a batch of grouped transactions moves each
 * head once: two statements per organization and commit on PostgreSQL (three on SQLite), whatever the number of
 * activities in it.
 */
public final class JdbcAuditLog implements AuditLogRepository {
    /** Plain, so that the canonical JSON of the entries never depends on how the API's mapper is configured. */
    private static final ObjectMapper CANONICAL = new ObjectMapper();

    private static final String ENTRY_COLUMNS =
            "organization_id, seq, kind, activity_id, record_id, content, content_hash, prev_hash, hash";

    /** An activity's columns as the log describes them: text, then the flag and the two times. */
    private static final List<String> ACTIVITY_TEXT = List.of(
            "id",
            "organization_id",
            "type",
            "status",
            "intent",
            "result",
            "failure_code",
            "failure_message",
            "fingerprint",
            "app_proofs");

    private static final List<String> VOTE_TEXT = List.of(
            "id",
            "activity_id",
            "organization_id",
            "user_id",
            "user_snapshot",
            "selection",
            "message",
            "public_key",
            "signature",
            "scheme",
            "evaluation_id",
            "evaluation");

    /** What {@link #activityColumns} reads, from {@code activities a}. */
    private static final String ACTIVITY_SELECT =
            select("a", ACTIVITY_TEXT) + ", a.failure_reported_as_error, a.created_at, a.updated_at";

    /** What {@link #voteColumns} reads, from {@code votes v}. */
    private static final String VOTE_SELECT = select("v", VOTE_TEXT) + ", v.created_at";

    /**
     * Entries, each with the row it describes as it is now when the entry keeps only its content's hash (NULL columns
     * when that row is gone): one statement, so that a reader has the content of every entry however it is kept.
     */
    private static final String ENTRIES_WITH_ROWS = "SELECT " + select("e", List.of(ENTRY_COLUMNS.split(", ")))
            + ", " + ACTIVITY_SELECT + ", " + VOTE_SELECT + " FROM audit_entries e"
            + " LEFT JOIN activities a ON e.content IS NULL AND e.kind <> 'VOTE' AND a.id = e.record_id"
            + " LEFT JOIN votes v ON e.content IS NULL AND e.kind = 'VOTE' AND v.id = e.record_id"
            + " WHERE e.organization_id = ?";

    private static String select(String alias, List<String> columns) {
        return columns.stream().map(column -> alias + "." + column).collect(Collectors.joining(", "));
    }

    /** The canonical JSON of a change's columns (sorted by name; {@code Instant}s as stored, in microseconds). */
    static String canonical(SortedMap<String, Object> columns) {
        SortedMap<String, Object> stored = new TreeMap<>();
        columns.forEach((name, value) -> stored.put(name, storedValue(value)));
        return CANONICAL.writeValueAsString(stored);
    }

    private static Object storedValue(Object value) {
        Object present = value instanceof Optional<?> optional ? optional.orElse(null) : value;
        return present instanceof Instant instant ? Sql.micros(instant) : present;
    }

    /** Notes {@code changes} for the organization's chain; they are appended when the transaction is about to commit. */
    void append(Tx tx, String organizationId, List<AuditChange> changes) {
        note(
                JdbcTx.of(tx),
                organizationId,
                changes.stream().map(NotedChange::of).toList());
    }

    /** Notes changes already made canonical (before the transaction, where that work runs in parallel). */
    static void note(JdbcTx tx, String organizationId, List<NotedChange> changes) {
        tx.audit().add(organizationId, changes);
    }

    /**
     * Inserts the records the transaction deferred and appends every change it noted, organization by organization
     * in id order (so that transactions appending to several chains take their rows in one order). Nothing is
     * appended for an organization that did not exist when the transaction began; one deleted in the transaction
     * continues its chain from the head kept when its row went ({@link #beforeOrganizationDeleted}).
     *
     * @throws RuntimeException a deferred record's {@code moved} failure when its organization is not at its state
     *         version
     */
    static void appendPending(JdbcTx tx) {
        if (tx.audit().isEmpty() && tx.records().isEmpty()) {
            return;
        }
        SortedMap<String, List<NotedChange>> changes = tx.audit().drain();
        SortedMap<String, List<DeferredRecord>> records = new TreeMap<>();
        for (DeferredRecord record : tx.records()) {
            records.computeIfAbsent(record.organizationId(), id -> new ArrayList<>())
                    .add(record);
            changes.putIfAbsent(record.organizationId(), List.of());
        }
        tx.records().clear();
        changes.forEach((organizationId, noted) ->
                appendNow(tx, organizationId, noted, records.getOrDefault(organizationId, List.of())));
    }

    /**
     * Appends the changes noted for one organization now, before its row (which holds the chain's head) is deleted,
     * and keeps that head on the transaction, so that what the transaction notes for the organization afterwards
     * (the deleting activity's outcome, at least) still goes at the end of its chain.
     */
    static void beforeOrganizationDeleted(JdbcTx tx, String organizationId) {
        appendNow(tx, organizationId, tx.audit().drain(organizationId), List.of());
        reserve(tx, organizationId, 0).ifPresent(row -> tx.audit().headWithoutRow(row.head()));
    }

    private static void appendNow(
            JdbcTx tx, String organizationId, List<NotedChange> changes, List<DeferredRecord> records) {
        if (changes.isEmpty()) {
            if (!records.isEmpty()) {
                throw new IllegalStateException("a deferred record without its audit changes");
            }
            return;
        }
        Optional<Reserved> reserved = reserve(tx, organizationId, changes.size());
        for (DeferredRecord record : records) {
            if (reserved.isEmpty() || reserved.get().stateVersion() != record.stateVersion()) {
                throw record.moved().get();
            }
        }
        if (reserved.isPresent()) {
            write(tx, reserved.get().head(), changes, records);
        } else {
            // Its row went earlier in this transaction: continue the chain from the head kept then. An organization
            // that never existed, or went in an earlier transaction, has no chain to continue.
            tx.audit()
                    .headWithoutRow(organizationId)
                    .ifPresent(head -> tx.audit().headWithoutRow(write(tx, head, changes, List.of())));
        }
    }

    /** An organization's row, locked: its state version, and its chain head before this transaction's entries. */
    private record Reserved(long stateVersion, Head head) {}

    /**
     * Locks the organization's row and returns its chain head as it was before {@code count} entries. PostgreSQL
     * moves {@code audit_seq} on in the same statement (one round trip); SQLite has one writer and only reads.
     */
    private static Optional<Reserved> reserve(JdbcTx tx, String organizationId, int count) {
        String sql = tx.dialect() == Dialect.POSTGRESQL
                ? "UPDATE organizations SET audit_seq = audit_seq + " + count + " WHERE id = ? "
                        + "RETURNING state_version, audit_seq - " + count + ", audit_head"
                : "SELECT state_version, audit_seq, audit_head FROM organizations WHERE id = ?";
        tx.heldOrganization(organizationId);
        return Sql.one(
                tx,
                sql,
                rs -> new Reserved(
                        rs.getLong(1), new Head(organizationId, rs.getLong(2), Optional.ofNullable(rs.getString(3)))),
                organizationId);
    }

    /**
     * Inserts the deferred records and the entries after {@code before} and records the new head (on the
     * organization's row, when it still has one): one statement on PostgreSQL (whose {@code audit_seq} {@link #reserve}
     * already moved on), two on SQLite (which defers no record). Returns the new head.
     */
    private static Head write(JdbcTx tx, Head before, List<NotedChange> changes, List<DeferredRecord> records) {
        String organizationId = before.organizationId();
        long seq = before.seq();
        String prevHash = before.hash().orElse(AuditChain.GENESIS);
        List<Object> values = new ArrayList<>(records.size() * 26 + changes.size() * 9 + 2);
        StringBuilder sql = new StringBuilder();
        if (!records.isEmpty()) {
            if (tx.dialect() != Dialect.POSTGRESQL) {
                throw new IllegalStateException("only PostgreSQL's grouped writes defer records");
            }
            sql.append("WITH activity AS (")
                    .append(JdbcActivityRepository.insertActivityRows(records.size()))
                    .append("), vote AS (")
                    .append(JdbcActivityRepository.insertVoteRows(records.size()))
                    .append("), ");
            records.forEach(r -> values.addAll(r.activityRow()));
            records.forEach(r -> values.addAll(r.voteRow()));
        }
        for (NotedChange change : changes) {
            seq++;
            String hash = AuditChain.linkHash(
                    organizationId,
                    seq,
                    change.kind(),
                    change.activityId(),
                    change.recordId(),
                    change.contentHash(),
                    prevHash);
            values.addAll(List.of(
                    organizationId,
                    seq,
                    change.kind(),
                    change.activityId(),
                    change.recordId(),
                    change.stored().map(Sql.Checked::new),
                    change.stored().isPresent() ? Optional.empty() : Optional.of(change.contentHash()),
                    prevHash,
                    hash));
            prevHash = hash;
        }
        String insert = "INSERT INTO audit_entries (" + ENTRY_COLUMNS + ") VALUES "
                + String.join(", ", Collections.nCopies(changes.size(), "(" + Sql.placeholders(9) + ")"));
        if (tx.dialect() == Dialect.POSTGRESQL) {
            sql.append(records.isEmpty() ? "WITH " : "")
                    .append("entries AS (")
                    .append(insert)
                    .append(") UPDATE organizations SET audit_head = ? WHERE id = ?");
            values.addAll(List.of(prevHash, organizationId));
            Sql.update(tx, sql.toString(), values.toArray());
            return new Head(organizationId, seq, Optional.of(prevHash));
        }
        Sql.update(tx, insert, values.toArray());
        Sql.update(
                tx,
                "UPDATE organizations SET audit_seq = ?, audit_head = ? WHERE id = ?",
                seq,
                prevHash,
                organizationId);
        return new Head(organizationId, seq, Optional.of(prevHash));
    }

    @Override
    public List<Head> unsignedHeads(Tx tx) {
        return Sql.list(
                tx,
                "SELECT id, audit_seq, audit_head FROM organizations o WHERE audit_seq > COALESCE("
                        + "(SELECT MAX(seq) FROM audit_signed_heads s WHERE s.organization_id = o.id), 0) ORDER BY id",
                rs -> new Head(rs.getString(1), rs.getLong(2), Optional.ofNullable(rs.getString(3))));
    }

    @Override
    public void insertSignedHead(Tx tx, SignedHead head, Instant signedAt) {
        Sql.update(
                tx,
                "INSERT INTO audit_signed_heads (organization_id, seq, head_hash, signature, signed_at) "
                        + "VALUES (?, ?, ?, ?, ?) ON CONFLICT (organization_id, seq) DO NOTHING",
                head.organizationId(),
                head.seq(),
                head.headHash(),
                head.signature(),
                signedAt);
    }

    @Override
    public List<String> organizations(Tx tx) {
        return Sql.list(
                tx,
                "SELECT id FROM organizations WHERE audit_seq > 0 UNION SELECT DISTINCT organization_id "
                        + "FROM audit_entries UNION SELECT DISTINCT organization_id FROM audit_signed_heads ORDER BY 1",
                rs -> rs.getString(1));
    }

    @Override
    public Optional<Head> head(Tx tx, String organizationId) {
        return Sql.one(
                tx,
                "SELECT audit_seq, audit_head FROM organizations WHERE id = ?",
                rs -> new Head(organizationId, rs.getLong(1), Optional.ofNullable(rs.getString(2))),
                organizationId);
    }

    @Override
    public List<StoredEntry> entries(Tx tx, String organizationId) {
        return Sql.list(tx, ENTRIES_WITH_ROWS + " ORDER BY e.seq", JdbcAuditLog::storedEntry, organizationId);
    }

    @Override
    public List<StoredEntry> entriesAfter(
            Tx tx, String organizationId, Optional<String> activityId, long afterSeq, int limit) {
        String sql = ENTRIES_WITH_ROWS + " AND e.seq > ?" + (activityId.isPresent() ? " AND e.activity_id = ?" : "")
                + " ORDER BY e.seq LIMIT " + limit;
        List<Object> args = new ArrayList<>(List.of(organizationId, afterSeq));
        activityId.ifPresent(args::add);
        return Sql.list(tx, sql, JdbcAuditLog::storedEntry, args.toArray());
    }

    private static StoredEntry storedEntry(ResultSet rs) throws SQLException {
        Optional<String> content = Optional.ofNullable(rs.getString(6));
        // ENTRIES_WITH_ROWS: the entry's nine columns, then the activity's (ten texts and three more), then the vote's.
        int activity = 10;
        int vote = activity + ACTIVITY_TEXT.size() + 3;
        Optional<String> row = Optional.empty();
        if (content.isEmpty() && rs.getString(activity) != null) {
            row = Optional.of(activityColumns(rs, activity));
        } else if (content.isEmpty() && rs.getString(vote) != null) {
            row = Optional.of(voteColumns(rs, vote));
        }
        return new StoredEntry(
                rs.getString(1),
                rs.getLong(2),
                rs.getString(3),
                rs.getString(4),
                rs.getString(5),
                content,
                content.isPresent() ? AuditChain.sha256Hex(content.get()) : rs.getString(7),
                row,
                rs.getString(8),
                rs.getString(9));
    }

    @Override
    public Optional<SignedHead> latestSignedHead(Tx tx, String organizationId) {
        return Sql.one(
                tx,
                "SELECT organization_id, seq, head_hash, signature, signed_at FROM audit_signed_heads "
                        + "WHERE organization_id = ? ORDER BY seq DESC LIMIT 1",
                JdbcAuditLog::signedHead,
                organizationId);
    }

    private static SignedHead signedHead(ResultSet rs) throws SQLException {
        return new SignedHead(
                rs.getString(1),
                rs.getLong(2),
                rs.getString(3),
                rs.getString(4),
                Sql.instant(rs.getLong(5)).toString());
    }

    @Override
    public List<SignedHead> signedHeads(Tx tx, String organizationId) {
        return Sql.list(
                tx,
                "SELECT organization_id, seq, head_hash, signature, signed_at FROM audit_signed_heads "
                        + "WHERE organization_id = ? ORDER BY seq",
                rs -> new SignedHead(
                        rs.getString(1),
                        rs.getLong(2),
                        rs.getString(3),
                        rs.getString(4),
                        Sql.instant(rs.getLong(5)).toString()),
                organizationId);
    }

    @Override
    public Map<String, Row> activityRows(Tx tx, String organizationId) {
        Map<String, Row> rows = new LinkedHashMap<>();
        Sql.list(
                        tx,
                        "SELECT " + ACTIVITY_SELECT + " FROM activities a WHERE a.organization_id = ? ORDER BY a.id",
                        rs -> new Row(rs.getString(1), activityColumns(rs, 1)),
                        organizationId)
                .forEach(row -> rows.put(row.activityId(), row));
        return rows;
    }

    /** The canonical JSON of the activity whose {@link #ACTIVITY_SELECT} columns start at {@code first}. */
    private static String activityColumns(ResultSet rs, int first) throws SQLException {
        SortedMap<String, Object> columns = new TreeMap<>();
        int column = first;
        for (String text : ACTIVITY_TEXT) {
            columns.put(text, rs.getString(column++));
        }
        boolean reported = rs.getBoolean(column++);
        columns.put("failure_reported_as_error", rs.wasNull() ? null : reported);
        columns.put("created_at", rs.getLong(column++));
        columns.put("updated_at", rs.getLong(column));
        return canonical(columns);
    }

    @Override
    public Map<String, Row> voteRows(Tx tx, String organizationId) {
        Map<String, Row> rows = new LinkedHashMap<>();
        Sql.list(
                        tx,
                        "SELECT " + VOTE_SELECT + " FROM votes v WHERE v.organization_id = ? ORDER BY v.id",
                        rs -> Map.entry(rs.getString(1), new Row(rs.getString(2), voteColumns(rs, 1))),
                        organizationId)
                .forEach(entry -> rows.put(entry.getKey(), entry.getValue()));
        return rows;
    }

    /** The canonical JSON of the vote whose {@link #VOTE_SELECT} columns start at {@code first}. */
    private static String voteColumns(ResultSet rs, int first) throws SQLException {
        SortedMap<String, Object> columns = new TreeMap<>();
        int column = first;
        for (String text : VOTE_TEXT) {
            columns.put(text, rs.getString(column++));
        }
        columns.put("created_at", rs.getLong(column));
        return canonical(columns);
    }

    @Override
    public Set<String> baseline(Tx tx) {
        return new HashSet<>(Sql.list(tx, "SELECT activity_id FROM audit_baseline", rs -> rs.getString(1)));
    }
}
