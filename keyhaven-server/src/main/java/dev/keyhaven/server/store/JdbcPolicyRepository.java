package dev.keyhaven.server.store;

import dev.keyhaven.server.api.WireEnum;
import dev.keyhaven.server.policy.Policy;
import dev.keyhaven.server.policy.PolicyEffect;
import dev.keyhaven.server.policy.PolicyRepository;
import dev.keyhaven.server.tx.Tx;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Policies. */
public final class JdbcPolicyRepository implements PolicyRepository {
    private static final String COLUMNS = "id, organization_id, name, effect, condition_expr, consensus_expr, "
            + "time_expr, notes, created_at, updated_at";

    @Override
    public void insert(Tx tx, Policy p) {
        Sql.update(
                tx,
                "INSERT INTO policies (" + COLUMNS + ") VALUES (" + Sql.placeholders(10) + ")",
                p.id(),
                p.organizationId(),
                p.name(),
                p.effect().wireName(),
                p.condition(),
                p.consensus(),
                p.time(),
                p.notes(),
                p.createdAt(),
                p.updatedAt());
    }

    @Override
    public void update(Tx tx, Policy p) {
        Sql.update(
                tx,
                "UPDATE policies SET name = ?, effect = ?, condition_expr = ?, consensus_expr = ?, "
                        + "time_expr = ?, notes = ?, updated_at = ? WHERE organization_id = ? AND id = ?",
                p.name(),
                p.effect().wireName(),
                p.condition(),
                p.consensus(),
                p.time(),
                p.notes(),
                p.updatedAt(),
                p.organizationId(),
                p.id());
    }

    @Override
    public int delete(Tx tx, String organizationId, Collection<String> policyIds) {
        if (policyIds.isEmpty()) {
            return 0;
        }
        List<Object> args = new ArrayList<>(List.of(organizationId));
        args.addAll(policyIds);
        return Sql.update(
                tx,
                "DELETE FROM policies WHERE organization_id = ? AND id IN (" + Sql.placeholders(policyIds.size()) + ")",
                args.toArray());
    }

    @Override
    public Optional<Policy> find(Tx tx, String organizationId, String policyId) {
        return Sql.one(
                tx,
                "SELECT " + COLUMNS + " FROM policies WHERE organization_id = ? AND id = ?",
                JdbcPolicyRepository::policy,
                organizationId,
                policyId);
    }

    @Override
    public boolean nameTaken(Tx tx, String organizationId, String name) {
        return Sql.exists(tx, "SELECT 1 FROM policies WHERE organization_id = ? AND name = ?", organizationId, name);
    }

    @Override
    public List<Policy> list(Tx tx, String organizationId) {
        return Sql.list(
                tx,
                "SELECT " + COLUMNS + " FROM policies WHERE organization_id = ? ORDER BY created_at, id",
                JdbcPolicyRepository::policy,
                organizationId);
    }

    @Override
    public int count(Tx tx, String organizationId) {
        return (int) Sql.count(tx, "SELECT COUNT(*) FROM policies WHERE organization_id = ?", organizationId);
    }

    @Override
    public List<String> missing(Tx tx, String organizationId, Collection<String> policyIds) {
        if (policyIds.isEmpty()) {
            return List.of();
        }
        List<Object> args = new ArrayList<>(List.of(organizationId));
        args.addAll(policyIds);
        Set<String> found = new HashSet<>(Sql.list(
                tx,
                "SELECT id FROM policies WHERE organization_id = ? AND id IN (" + Sql.placeholders(policyIds.size())
                        + ")",
                rs -> rs.getString(1),
                args.toArray()));
        return policyIds.stream().filter(id -> !found.contains(id)).toList();
    }

    private static Policy policy(ResultSet rs) throws SQLException {
        return new Policy(
                rs.getString("id"),
                rs.getString("organization_id"),
                rs.getString("name"),
                WireEnum.fromWire(PolicyEffect.class, rs.getString("effect")).orElseThrow(),
                rs.getString("condition_expr"),
                rs.getString("consensus_expr"),
                Optional.ofNullable(rs.getString("time_expr")),
                rs.getString("notes"),
                Sql.instant(rs, "created_at"),
                Sql.instant(rs, "updated_at"));
    }
}
