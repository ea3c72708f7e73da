package dev.keyhaven.server.store;

import dev.keyhaven.policy.engine.Outcome;
import dev.keyhaven.policy.engine.PolicyOutcome;
import dev.keyhaven.server.activity.Activity;
import dev.keyhaven.server.activity.ActivityRepository;
import dev.keyhaven.server.activity.ActivityStatus;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.AppProof;
import dev.keyhaven.server.activity.Failure;
import dev.keyhaven.server.activity.PolicyEvaluation;
import dev.keyhaven.server.activity.Vote;
import dev.keyhaven.server.activity.VoteSelection;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Pagination;
import dev.keyhaven.server.api.WireEnum;
import dev.keyhaven.server.audit.AuditChange;
import dev.keyhaven.server.audit.AuditKind;
import dev.keyhaven.server.tx.Tx;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Activities and votes. Intent, result and the voter snapshots are stored as JSON text. */
public final class JdbcActivityRepository implements ActivityRepository {
    static final String COLUMNS = "id, organization_id, type, status, intent, result, failure_code, "
            + "failure_message, failure_reported_as_error, fingerprint, created_at, updated_at";
    static final String VOTE_COLUMNS = "id, activity_id, organization_id, user_id, user_snapshot, selection, "
            + "message, public_key, signature, scheme, created_at, evaluation_id, evaluation";

    /** The audit entries' names of an activity's and a vote's values: the inserts' columns, then app proofs. */
    private static final List<String> ACTIVITY_COLUMN_NAMES = columnNames(COLUMNS);

    private static final List<String> VOTE_COLUMN_NAMES = columnNames(VOTE_COLUMNS);

    /** What queries read: the inserted columns and the app proofs (NULL for an activity without). */
    private static final String SELECT_COLUMNS = COLUMNS + ", app_proofs";

    private static final String INSERT_ACTIVITY =
            "INSERT INTO activities (" + COLUMNS + ") VALUES (" + Sql.placeholders(12) + ")";
    /** The insert of an activity that has app proofs (the signing path's insert stays as it is without them). */
    private static final String INSERT_ACTIVITY_WITH_PROOFS =
            "INSERT INTO activities (" + COLUMNS + ", app_proofs) VALUES (" + Sql.placeholders(13) + ")";

    private static final String INSERT_VOTE =
            "INSERT INTO votes (" + VOTE_COLUMNS + ") VALUES (" + Sql.placeholders(13) + ")";

    private final ObjectMapper json;
    private final JdbcAuditLog audit;

    public JdbcActivityRepository(ObjectMapper json, JdbcAuditLog audit) {
        this.json = json;
        this.audit = audit;
    }

    @Override
    public void insert(Tx tx, Activity a) {
        List<Object> values = activityValues(a);
        JdbcTx.of(tx).holdOrganization(a.organizationId());
        Sql.update(tx, insertActivity(a), values.toArray());
        audit.append(tx, a.organizationId(), List.of(created(a, values)));
    }

    /**
     * The log's record of a new activity: every column as inserted (app proofs NULL when it has none). Nothing changes
     * an activity recorded in a final status (a signature, a refusal), so its entry keeps only the content's hash.
     */
    private static AuditChange created(Activity a, List<Object> values) {
        SortedMap<String, Object> columns = columns(ACTIVITY_COLUMN_NAMES, values);
        columns.putIfAbsent("app_proofs", null);
        return new AuditChange(
                AuditKind.ACTIVITY_CREATED, a.id(), a.id(), columns, a.status().isTerminal());
    }

    /** The log's record of a vote: every column. A vote is never changed, so its entry keeps the content's hash. */
    private static AuditChange voted(Vote v, List<Object> values) {
        return new AuditChange(AuditKind.VOTE, v.activityId(), v.id(), columns(VOTE_COLUMN_NAMES, values), true);
    }

    /** The columns named in {@code names} (see {@link #columnNames}) with their values. */
    private static SortedMap<String, Object> columns(List<String> names, List<Object> values) {
        SortedMap<String, Object> columns = new TreeMap<>();
        for (int i = 0; i < values.size(); i++) {
            columns.put(names.get(i), values.get(i));
        }
        return columns;
    }

    /** An insert's column list, then {@code app_proofs}; split once, not per record (it was 1 % of a signature). */
    private static List<String> columnNames(String insertColumns) {
        List<String> names = new ArrayList<>(Arrays.asList(insertColumns.split(", ")));
        names.add("app_proofs");
        return List.copyOf(names);
    }

    private static String insertActivity(Activity a) {
        return a.appProofs().isEmpty() ? INSERT_ACTIVITY : INSERT_ACTIVITY_WITH_PROOFS;
    }

    private List<Object> activityValues(Activity a) {
        Optional<Failure> f = a.failure();
        List<Object> values = Arrays.asList(
                a.id(),
                a.organizationId(),
                a.type().wireName(),
                a.status().wireName(),
                json.writeValueAsString(a.intent()),
                json.writeValueAsString(a.result()),
                f.map(x -> x.code().name()),
                f.map(Failure::message),
                f.map(Failure::reportedAsError),
                a.fingerprint(),
                a.createdAt(),
                a.updatedAt());
        if (a.appProofs().isEmpty()) {
            return values;
        }
        List<Object> withProofs = new ArrayList<>(values);
        withProofs.add(json.writeValueAsString(a.appProofs()));
        return withProofs;
    }

    @Override
    public void updateAppProofs(Tx tx, String organizationId, String activityId, List<AppProof> proofs) {
        Optional<String> stored = proofs.isEmpty() ? Optional.empty() : Optional.of(json.writeValueAsString(proofs));
        Sql.update(tx, "UPDATE activities SET app_proofs = ? WHERE id = ?", stored, activityId);
        SortedMap<String, Object> columns = new TreeMap<>();
        columns.put("app_proofs", stored);
        audit.append(
                tx, organizationId, List.of(new AuditChange(AuditKind.APP_PROOFS, activityId, activityId, columns)));
    }

    @Override
    public void updateOutcome(
            Tx tx,
            String organizationId,
            String activityId,
            ActivityStatus status,
            JsonNode result,
            Optional<Failure> failure,
            Instant updatedAt) {
        SortedMap<String, Object> columns = new TreeMap<>();
        columns.put("status", status.wireName());
        columns.put("result", json.writeValueAsString(result));
        columns.put("failure_code", failure.map(x -> x.code().name()));
        columns.put("failure_message", failure.map(Failure::message));
        columns.put("failure_reported_as_error", failure.map(Failure::reportedAsError));
        columns.put("updated_at", updatedAt);
        Sql.update(
                tx,
                "UPDATE activities SET status = ?, result = ?, failure_code = ?, failure_message = ?, "
                        + "failure_reported_as_error = ?, updated_at = ? WHERE id = ?",
                columns.get("status"),
                columns.get("result"),
                columns.get("failure_code"),
                columns.get("failure_message"),
                columns.get("failure_reported_as_error"),
                updatedAt,
                activityId);
        audit.append(
                tx,
                organizationId,
                List.of(new AuditChange(AuditKind.ACTIVITY_OUTCOME, activityId, activityId, columns)));
    }

    @Override
    public void insertVote(Tx tx, String organizationId, Vote v) {
        List<Object> values = voteValues(organizationId, v);
        Sql.update(tx, INSERT_VOTE, values.toArray());
        audit.append(tx, organizationId, List.of(voted(v, values)));
    }

    private List<Object> voteValues(String organizationId, Vote v) {
        return Arrays.asList(
                v.id(),
                v.activityId(),
                organizationId,
                v.userId(),
                json.writeValueAsString(v.user()),
                v.selection().wireName(),
                v.message(),
                v.publicKey(),
                v.signature(),
                v.scheme(),
                v.createdAt(),
                v.evaluation().map(PolicyEvaluation::id),
                v.evaluation().map(this::evaluationJson));
    }

    /** A signature's record made ready before its write: the two rows' values and their audit changes. */
    private record Ready(Activity activity, List<Object> activityRow, List<Object> voteRow, List<NotedChange> changes)
            implements Prepared {}

    @Override
    public Prepared prepare(Activity a) {
        Vote v = a.votes().getFirst();
        List<Object> activity = activityValues(a);
        List<Object> vote = voteValues(a.organizationId(), v);
        List<NotedChange> changes = List.of(NotedChange.of(created(a, activity)), NotedChange.of(voted(v, vote)));
        List<Object> activityRow = new ArrayList<>(13);
        // Text checked here, on the request's thread, not when the serial writer binds it.
        activity.forEach(value -> activityRow.add(Sql.checked(value)));
        if (activityRow.size() == 12) {
            // Every row of a grouped insert has the same columns: app_proofs NULL for an activity without proofs.
            activityRow.add(Optional.empty());
        }
        List<Object> voteRow = new ArrayList<>(13);
        vote.forEach(value -> voteRow.add(Sql.checked(value)));
        return new Ready(a, activityRow, voteRow, changes);
    }

    @Override
    public void insertAtStateVersion(
            Tx tx, Prepared prepared, long stateVersion, Supplier<? extends RuntimeException> moved) {
        Ready ready = (Ready) prepared;
        String organizationId = ready.activity().organizationId();
        JdbcTx jdbc = JdbcTx.of(tx);
        JdbcAuditLog.note(jdbc, organizationId, ready.changes());
        if (jdbc.dialect() == Dialect.POSTGRESQL) {
            // Inserted with the batch's other records and audit entries, after the version check, at the commit.
            jdbc.records()
                    .add(new DeferredRecord(organizationId, stateVersion, moved, ready.activityRow(), ready.voteRow()));
            return;
        }
        Sql.update(tx, INSERT_ACTIVITY_WITH_PROOFS, ready.activityRow().toArray());
        Sql.update(tx, INSERT_VOTE, ready.voteRow().toArray());
        long version = Sql.one(
                        tx, "SELECT state_version FROM organizations WHERE id = ?", rs -> rs.getLong(1), organizationId)
                .orElse(-1L);
        if (version != stateVersion) {
            throw moved.get();
        }
    }

    /** The insert of {@code count} activities, every column with the app proofs. */
    static String insertActivityRows(int count) {
        return "INSERT INTO activities (" + COLUMNS + ", app_proofs) VALUES "
                + String.join(", ", Collections.nCopies(count, "(" + Sql.placeholders(13) + ")"));
    }

    /** The insert of {@code count} votes. */
    static String insertVoteRows(int count) {
        return "INSERT INTO votes (" + VOTE_COLUMNS + ") VALUES "
                + String.join(", ", Collections.nCopies(count, "(" + Sql.placeholders(13) + ")"));
    }

    @Override
    public Optional<Activity> find(Tx tx, String organizationId, String activityId) {
        return withVotes(
                        tx,
                        Sql.list(
                                tx,
                                "SELECT " + SELECT_COLUMNS + " FROM activities WHERE organization_id = ? AND id = ?",
                                this::activity,
                                organizationId,
                                activityId))
                .stream()
                .findFirst();
    }

    @Override
    public Optional<Activity> findByFingerprint(Tx tx, String organizationId, String fingerprint) {
        return byFingerprint(tx, organizationId, fingerprint, "");
    }

    @Override
    public Optional<Instant> unprefixedFingerprintsUntil(Tx tx) {
        return Sql.one(
                tx, "SELECT until_ms FROM unprefixed_fingerprints", rs -> Instant.ofEpochMilli(rs.getLong("until_ms")));
    }

    @Override
    public Optional<Activity> lockByFingerprint(Tx tx, String organizationId, String fingerprint) {
        return byFingerprint(
                tx, organizationId, fingerprint, JdbcTx.of(tx).dialect().forUpdate());
    }

    private Optional<Activity> byFingerprint(Tx tx, String organizationId, String fingerprint, String lock) {
        return withVotes(
                        tx,
                        Sql.list(
                                tx,
                                "SELECT " + SELECT_COLUMNS + " FROM activities WHERE organization_id = ? "
                                        + "AND fingerprint = ?" + lock,
                                this::activity,
                                organizationId,
                                fingerprint))
                .stream()
                .findFirst();
    }

    @Override
    public boolean exists(Tx tx, String organizationId, String activityId) {
        return Sql.exists(
                tx, "SELECT 1 FROM activities WHERE organization_id = ? AND id = ?", organizationId, activityId);
    }

    @Override
    public List<Activity> list(
            Tx tx, String organizationId, Set<ActivityStatus> statuses, Set<ActivityType> types, Pagination page) {
        StringBuilder where = new StringBuilder(" WHERE organization_id = ?");
        List<Object> args = new ArrayList<>(List.of(organizationId));
        if (!statuses.isEmpty()) {
            where.append(" AND status IN (")
                    .append(Sql.placeholders(statuses.size()))
                    .append(')');
            statuses.forEach(s -> args.add(s.wireName()));
        }
        if (!types.isEmpty()) {
            where.append(" AND type IN (")
                    .append(Sql.placeholders(types.size()))
                    .append(')');
            types.forEach(t -> args.add(t.wireName()));
        }
        Optional<String> cursor = page.after().or(page::before);
        boolean backwards = page.before().isPresent();
        if (cursor.isPresent()) {
            long cursorTime = Sql.count(
                    tx,
                    "SELECT created_at FROM activities WHERE organization_id = ? AND id = ?",
                    organizationId,
                    cursor.get());
            String cmp = backwards ? ">" : "<";
            where.append(" AND (created_at ")
                    .append(cmp)
                    .append(" ? OR (created_at = ? AND id ")
                    .append(cmp)
                    .append(" ?))");
            args.add(cursorTime);
            args.add(cursorTime);
            args.add(cursor.get());
        }
        String order = backwards ? " ORDER BY created_at ASC, id ASC" : " ORDER BY created_at DESC, id DESC";
        args.add(page.limit());
        List<Activity> rows = new ArrayList<>(Sql.list(
                tx,
                "SELECT " + SELECT_COLUMNS + " FROM activities" + where + order + " LIMIT ?",
                this::activity,
                args.toArray()));
        if (backwards) {
            Collections.reverse(rows);
        }
        return withVotes(tx, rows);
    }

    /** Loads the votes of all {@code activities} in one query. */
    private List<Activity> withVotes(Tx tx, List<Activity> activities) {
        if (activities.isEmpty()) {
            return activities;
        }
        List<Object> ids = activities.stream().map(Activity::id).collect(Collectors.toList());
        Map<String, List<Vote>> votes = Sql.list(
                        tx,
                        "SELECT " + VOTE_COLUMNS + " FROM votes WHERE activity_id IN (" + Sql.placeholders(ids.size())
                                + ") ORDER BY created_at, id",
                        this::vote,
                        ids.toArray())
                .stream()
                .collect(Collectors.groupingBy(Vote::activityId));
        return activities.stream()
                .map(a -> a.withVotes(votes.getOrDefault(a.id(), List.of())))
                .toList();
    }

    private Activity activity(ResultSet rs) throws SQLException {
        String failureCode = rs.getString("failure_code");
        Optional<Failure> failure = failureCode == null
                ? Optional.empty()
                : Optional.of(new Failure(
                        ErrorCode.valueOf(failureCode),
                        rs.getString("failure_message"),
                        rs.getBoolean("failure_reported_as_error")));
        return new Activity(
                rs.getString("id"),
                rs.getString("organization_id"),
                WireEnum.fromWire(ActivityType.class, rs.getString("type")).orElseThrow(),
                WireEnum.fromWire(ActivityStatus.class, rs.getString("status")).orElseThrow(),
                json.readTree(rs.getString("intent")),
                json.readTree(rs.getString("result")),
                failure,
                rs.getString("fingerprint"),
                List.of(),
                Sql.instant(rs, "created_at"),
                Sql.instant(rs, "updated_at"),
                appProofs(rs.getString("app_proofs")));
    }

    private List<AppProof> appProofs(String stored) {
        if (stored == null) {
            return List.of();
        }
        List<AppProof> proofs = new ArrayList<>();
        for (JsonNode p : json.readTree(stored)) {
            proofs.add(new AppProof(
                    p.path("scheme").asString(),
                    p.path("publicKey").asString(),
                    p.path("proofPayload").asString(),
                    p.path("signature").asString()));
        }
        return proofs;
    }

    private Vote vote(ResultSet rs) throws SQLException {
        return new Vote(
                rs.getString("id"),
                rs.getString("activity_id"),
                rs.getString("user_id"),
                json.readTree(rs.getString("user_snapshot")),
                WireEnum.fromWire(VoteSelection.class, rs.getString("selection"))
                        .orElseThrow(),
                rs.getString("message"),
                rs.getString("public_key"),
                rs.getString("signature"),
                rs.getString("scheme"),
                Sql.instant(rs, "created_at"),
                evaluation(rs.getString("evaluation_id"), rs.getString("evaluation")));
    }

    /** {@code {"overall": "ALLOW", "policies": [{"policyId": …, "outcome": …, "error": …}]}}. */
    private String evaluationJson(PolicyEvaluation e) {
        ObjectNode out = json.createObjectNode();
        out.put("overall", e.overall().name());
        ArrayNode policies = out.putArray("policies");
        for (PolicyOutcome p : e.policies()) {
            ObjectNode policy = policies.addObject();
            policy.put("policyId", p.policyId());
            policy.put("outcome", p.outcome().name());
            p.error().ifPresent(error -> policy.put("error", error));
            if (p.failsClosed()) {
                policy.put("failsClosed", true);
            }
        }
        return json.writeValueAsString(out);
    }

    private Optional<PolicyEvaluation> evaluation(String id, String stored) {
        if (id == null || stored == null) {
            return Optional.empty();
        }
        JsonNode node = json.readTree(stored);
        List<PolicyOutcome> policies = new ArrayList<>();
        for (JsonNode p : node.path("policies")) {
            policies.add(new PolicyOutcome(
                    p.path("policyId").asString(),
                    Outcome.valueOf(p.path("outcome").asString()),
                    p.has("error") ? Optional.of(p.path("error").asString()) : Optional.empty(),
                    p.path("failsClosed").asBoolean(false)));
        }
        return Optional.of(new PolicyEvaluation(
                id, policies, Outcome.valueOf(node.path("overall").asString())));
    }
}
