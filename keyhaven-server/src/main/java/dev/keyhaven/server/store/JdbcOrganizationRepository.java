package dev.keyhaven.server.store;

import dev.keyhaven.server.organization.Organization;
import dev.keyhaven.server.organization.OrganizationRepository;
import dev.keyhaven.server.organization.RootQuorum;
import dev.keyhaven.server.tx.Tx;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Organizations and their root quorums. */
public final class JdbcOrganizationRepository implements OrganizationRepository {
    private static final String COLUMNS = "id, name, parent_id, root_quorum_threshold, created_at, updated_at";

    @Override
    public void insert(Tx tx, Organization o) {
        Sql.update(
                tx,
                "INSERT INTO organizations (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?)",
                o.id(),
                o.name(),
                o.parentId(),
                o.rootQuorum().threshold(),
                o.createdAt(),
                o.updatedAt());
        insertMembers(tx, o.id(), o.rootQuorum().userIds());
    }

    @Override
    public Optional<Organization> find(Tx tx, String organizationId) {
        // One statement for the organization and its root quorum: every activity's authorization reads both.
        record Row(Organization organization, String memberId) {}
        List<Row> rows = Sql.list(
                tx,
                "SELECT o.id, o.name, o.parent_id, o.root_quorum_threshold, o.created_at, "
                        + "o.updated_at, m.user_id FROM organizations o "
                        + "LEFT JOIN root_quorum_members m ON m.organization_id = o.id "
                        + "LEFT JOIN users u ON u.id = m.user_id WHERE o.id = ? ORDER BY u.created_at, u.id",
                rs -> new Row(organization(rs, List.of()), rs.getString("user_id")),
                organizationId);
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        Organization first = rows.getFirst().organization();
        List<String> members = rows.stream()
                .map(Row::memberId)
                .filter(java.util.Objects::nonNull)
                .toList();
        return Optional.of(new Organization(
                first.id(),
                first.name(),
                first.parentId(),
                new RootQuorum(first.rootQuorum().threshold(), members),
                first.createdAt(),
                first.updatedAt()));
    }

    @Override
    public boolean anyExists(Tx tx) {
        return Sql.exists(tx, "SELECT 1 FROM organizations LIMIT 1");
    }

    @Override
    public Optional<Organization> findRoot(Tx tx) {
        return Sql.list(
                        tx,
                        "SELECT " + COLUMNS + " FROM organizations WHERE parent_id IS NULL ORDER BY created_at, id",
                        rs -> map(tx, rs))
                .stream()
                .findFirst();
    }

    @Override
    public Optional<MemberNames> memberNames(Tx tx, String organizationId, String userId) {
        return Sql.one(
                tx,
                "SELECT o.name, u.name FROM users u JOIN organizations o ON o.id = u.organization_id "
                        + "WHERE u.organization_id = ? AND u.id = ?",
                rs -> new MemberNames(rs.getString(1), rs.getString(2)),
                organizationId,
                userId);
    }

    @Override
    public void rename(Tx tx, String organizationId, String name, Instant updatedAt) {
        Sql.update(
                tx, "UPDATE organizations SET name = ?, updated_at = ? WHERE id = ?", name, updatedAt, organizationId);
    }

    @Override
    public void setRootQuorum(Tx tx, String organizationId, RootQuorum quorum, Instant updatedAt) {
        Sql.update(
                tx,
                "UPDATE organizations SET root_quorum_threshold = ?, updated_at = ? WHERE id = ?",
                quorum.threshold(),
                updatedAt,
                organizationId);
        Sql.update(tx, "DELETE FROM root_quorum_members WHERE organization_id = ?", organizationId);
        insertMembers(tx, organizationId, quorum.userIds());
    }

    private static void insertMembers(Tx tx, String organizationId, List<String> userIds) {
        for (String userId : userIds) {
            Sql.update(
                    tx,
                    "INSERT INTO root_quorum_members (organization_id, user_id) VALUES (?, ?)",
                    organizationId,
                    userId);
        }
    }

    private static Organization map(Tx tx, ResultSet rs) throws SQLException {
        String id = rs.getString("id");
        List<String> members = Sql.list(
                tx,
                "SELECT m.user_id FROM root_quorum_members m "
                        + "JOIN users u ON u.id = m.user_id WHERE m.organization_id = ? ORDER BY u.created_at, u.id",
                r -> r.getString(1),
                id);
        return organization(rs, members);
    }

    private static Organization organization(ResultSet rs, List<String> rootQuorumMembers) throws SQLException {
        return new Organization(
                rs.getString("id"),
                rs.getString("name"),
                Optional.ofNullable(rs.getString("parent_id")),
                new RootQuorum(rs.getInt("root_quorum_threshold"), rootQuorumMembers),
                Sql.instant(rs, "created_at"),
                Sql.instant(rs, "updated_at"));
    }
}
