package dev.keyhaven.server.store;

import dev.keyhaven.server.tvc.ManifestApproval;
import dev.keyhaven.server.tvc.OperatorSet;
import dev.keyhaven.server.tvc.TvcApp;
import dev.keyhaven.server.tvc.TvcDeployment;
import dev.keyhaven.server.tvc.TvcOperator;
import dev.keyhaven.server.tvc.TvcRepository;
import dev.keyhaven.server.tx.Tx;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** TVC operators, operator sets, apps, deployments and manifest approvals. */
public final class JdbcTvcRepository implements TvcRepository {
    private static final String OPERATOR_COLUMNS =
            "o.id, o.organization_id, o.name, o.public_key, o.created_at, " + "o.updated_at";
    private static final String APP_COLUMNS = "id, organization_id, name, quorum_public_key, manifest_set_id, "
            + "share_set_id, enable_egress, enable_debug_mode, created_at, updated_at";
    private static final String DEPLOYMENT_COLUMNS = "id, organization_id, app_id, manifest_id, manifest, "
            + "manifest_hash, qos_version, pivot_container, debug_mode, created_at, updated_at";

    @Override
    public void insertOperator(Tx tx, TvcOperator o) {
        Sql.update(
                tx,
                "INSERT INTO tvc_operators (id, organization_id, name, public_key, created_at, updated_at) "
                        + "VALUES (?, ?, ?, ?, ?, ?)",
                o.id(),
                o.organizationId(),
                o.name(),
                o.publicKey(),
                o.createdAt(),
                o.updatedAt());
    }

    @Override
    public Optional<TvcOperator> findOperator(Tx tx, String organizationId, String operatorId) {
        return Sql.one(
                tx,
                "SELECT " + OPERATOR_COLUMNS + " FROM tvc_operators o WHERE o.organization_id = ? " + "AND o.id = ?",
                JdbcTvcRepository::operator,
                organizationId,
                operatorId);
    }

    @Override
    public boolean operatorNameTaken(Tx tx, String organizationId, String name) {
        return Sql.exists(
                tx, "SELECT 1 FROM tvc_operators WHERE organization_id = ? AND name = ?", organizationId, name);
    }

    @Override
    public void insertOperatorSet(Tx tx, OperatorSet set) {
        Sql.update(
                tx,
                "INSERT INTO tvc_operator_sets (id, organization_id, name, threshold, created_at, updated_at) "
                        + "VALUES (?, ?, ?, ?, ?, ?)",
                set.id(),
                set.organizationId(),
                set.name(),
                set.threshold(),
                set.createdAt(),
                set.updatedAt());
        for (int i = 0; i < set.operators().size(); i++) {
            Sql.update(
                    tx,
                    "INSERT INTO tvc_operator_set_members (set_id, operator_id, position) VALUES (?, ?, ?)",
                    set.id(),
                    set.operators().get(i).id(),
                    i);
        }
    }

    @Override
    public Optional<OperatorSet> findOperatorSet(Tx tx, String organizationId, String setId) {
        List<TvcOperator> members = Sql.list(
                tx,
                "SELECT " + OPERATOR_COLUMNS + " FROM tvc_operator_set_members m "
                        + "JOIN tvc_operators o ON o.id = m.operator_id WHERE m.set_id = ? ORDER BY m.position",
                JdbcTvcRepository::operator,
                setId);
        return Sql.one(
                tx,
                "SELECT id, organization_id, name, threshold, created_at, updated_at "
                        + "FROM tvc_operator_sets WHERE organization_id = ? AND id = ?",
                rs -> new OperatorSet(
                        rs.getString("id"),
                        rs.getString("organization_id"),
                        rs.getString("name"),
                        rs.getInt("threshold"),
                        members,
                        Sql.instant(rs, "created_at"),
                        Sql.instant(rs, "updated_at")),
                organizationId,
                setId);
    }

    @Override
    public void insertApp(Tx tx, TvcApp a) {
        Sql.update(
                tx,
                "INSERT INTO tvc_apps (" + APP_COLUMNS + ") VALUES (" + Sql.placeholders(10) + ")",
                a.id(),
                a.organizationId(),
                a.name(),
                a.quorumPublicKey(),
                a.manifestSet().id(),
                a.shareSet().id(),
                a.enableEgress(),
                a.enableDebugModeDeployments(),
                a.createdAt(),
                a.updatedAt());
    }

    @Override
    public Optional<TvcApp> findApp(Tx tx, String organizationId, String appId) {
        return apps(tx, " WHERE organization_id = ? AND id = ?", organizationId, appId).stream()
                .findFirst();
    }

    @Override
    public boolean appNameTaken(Tx tx, String organizationId, String name) {
        return Sql.exists(tx, "SELECT 1 FROM tvc_apps WHERE organization_id = ? AND name = ?", organizationId, name);
    }

    @Override
    public List<TvcApp> listApps(Tx tx, String organizationId) {
        return apps(tx, " WHERE organization_id = ? ORDER BY created_at, id", organizationId);
    }

    /** Apps with their operator sets (a few queries per app: TVC apps are few). */
    private List<TvcApp> apps(Tx tx, String where, Object... args) {
        record Row(
                String id,
                String organizationId,
                String name,
                String quorumKey,
                String manifestSetId,
                String shareSetId,
                boolean egress,
                boolean debug,
                Instant createdAt,
                Instant updatedAt) {}
        List<Row> rows = Sql.list(
                tx,
                "SELECT " + APP_COLUMNS + " FROM tvc_apps" + where,
                rs -> new Row(
                        rs.getString("id"),
                        rs.getString("organization_id"),
                        rs.getString("name"),
                        rs.getString("quorum_public_key"),
                        rs.getString("manifest_set_id"),
                        rs.getString("share_set_id"),
                        rs.getBoolean("enable_egress"),
                        rs.getBoolean("enable_debug_mode"),
                        Sql.instant(rs, "created_at"),
                        Sql.instant(rs, "updated_at")),
                args);
        return rows.stream()
                .map(r -> new TvcApp(
                        r.id(),
                        r.organizationId(),
                        r.name(),
                        r.quorumKey(),
                        findOperatorSet(tx, r.organizationId(), r.manifestSetId())
                                .orElseThrow(),
                        findOperatorSet(tx, r.organizationId(), r.shareSetId()).orElseThrow(),
                        r.egress(),
                        r.debug(),
                        r.createdAt(),
                        r.updatedAt()))
                .toList();
    }

    @Override
    public void insertDeployment(Tx tx, TvcDeployment d) {
        Sql.update(
                tx,
                "INSERT INTO tvc_deployments (" + DEPLOYMENT_COLUMNS + ") VALUES (" + Sql.placeholders(11) + ")",
                d.id(),
                d.organizationId(),
                d.appId(),
                d.manifestId(),
                d.manifest(),
                d.manifestHash(),
                d.qosVersion(),
                d.pivotContainer(),
                d.debugMode(),
                d.createdAt(),
                d.updatedAt());
    }

    @Override
    public Optional<TvcDeployment> findDeployment(Tx tx, String organizationId, String deploymentId) {
        return Sql.one(
                tx,
                "SELECT " + DEPLOYMENT_COLUMNS + " FROM tvc_deployments WHERE organization_id = ? " + "AND id = ?",
                JdbcTvcRepository::deployment,
                organizationId,
                deploymentId);
    }

    @Override
    public Optional<TvcDeployment> findDeploymentByManifest(Tx tx, String organizationId, String manifestId) {
        return Sql.one(
                tx,
                "SELECT " + DEPLOYMENT_COLUMNS + " FROM tvc_deployments WHERE organization_id = ? "
                        + "AND manifest_id = ?",
                JdbcTvcRepository::deployment,
                organizationId,
                manifestId);
    }

    @Override
    public List<TvcDeployment> listDeployments(Tx tx, String organizationId, String appId) {
        return Sql.list(
                tx,
                "SELECT " + DEPLOYMENT_COLUMNS + " FROM tvc_deployments WHERE organization_id = ? "
                        + "AND app_id = ? ORDER BY created_at, id",
                JdbcTvcRepository::deployment,
                organizationId,
                appId);
    }

    @Override
    public void insertApproval(Tx tx, ManifestApproval a) {
        Sql.update(
                tx,
                "INSERT INTO tvc_manifest_approvals (id, manifest_id, operator_id, signature, created_at) "
                        + "VALUES (?, ?, ?, ?, ?)",
                a.id(),
                a.manifestId(),
                a.operator().id(),
                a.signature(),
                a.createdAt());
    }

    @Override
    public List<ManifestApproval> approvals(Tx tx, String manifestId) {
        return Sql.list(
                tx,
                "SELECT a.id AS approval_id, a.manifest_id, a.signature, a.created_at AS approved_at, "
                        + OPERATOR_COLUMNS
                        + " FROM tvc_manifest_approvals a JOIN tvc_operators o ON o.id = a.operator_id "
                        + "WHERE a.manifest_id = ? ORDER BY a.created_at, a.id",
                rs -> new ManifestApproval(
                        rs.getString("approval_id"),
                        rs.getString("manifest_id"),
                        operator(rs),
                        rs.getString("signature"),
                        Sql.instant(rs, "approved_at")),
                manifestId);
    }

    private static TvcOperator operator(ResultSet rs) throws SQLException {
        return new TvcOperator(
                rs.getString("id"),
                rs.getString("organization_id"),
                rs.getString("name"),
                rs.getString("public_key"),
                Sql.instant(rs, "created_at"),
                Sql.instant(rs, "updated_at"));
    }

    private static TvcDeployment deployment(ResultSet rs) throws SQLException {
        return new TvcDeployment(
                rs.getString("id"),
                rs.getString("organization_id"),
                rs.getString("app_id"),
                rs.getString("manifest_id"),
                rs.getString("manifest"),
                rs.getString("manifest_hash"),
                rs.getString("qos_version"),
                rs.getString("pivot_container"),
                rs.getBoolean("debug_mode"),
                Sql.instant(rs, "created_at"),
                Sql.instant(rs, "updated_at"));
    }
}
