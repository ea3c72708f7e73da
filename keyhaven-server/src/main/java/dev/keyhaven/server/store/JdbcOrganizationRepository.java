package dev.keyhaven.server.store;

import dev.keyhaven.server.api.Pagination;
import dev.keyhaven.server.api.WireEnum;
import dev.keyhaven.server.organization.FeatureName;
import dev.keyhaven.server.organization.Organization;
import dev.keyhaven.server.organization.OrganizationRepository;
import dev.keyhaven.server.organization.RootQuorum;
import dev.keyhaven.server.organization.SubOrganizationFilter;
import dev.keyhaven.server.tx.Tx;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
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

    @Override
    public List<FeatureSetting> features(Tx tx, String organizationId) {
        return Sql.list(
                        tx,
                        "SELECT name, value FROM organization_features WHERE organization_id = ? ORDER BY name",
                        rs -> {
                            String value = rs.getString(2);
                            return WireEnum.fromWire(FeatureName.class, rs.getString(1))
                                    .map(name -> new FeatureSetting(name, value));
                        },
                        organizationId)
                .stream()
                .flatMap(Optional::stream)
                .toList();
    }

    @Override
    public void setFeature(Tx tx, String organizationId, FeatureName name, String value, Instant updatedAt) {
        removeFeature(tx, organizationId, name);
        Sql.update(
                tx,
                "INSERT INTO organization_features (organization_id, name, value, updated_at) VALUES (?, ?, ?, ?)",
                organizationId,
                name.wireName(),
                value,
                updatedAt);
    }

    @Override
    public void removeFeature(Tx tx, String organizationId, FeatureName name) {
        Sql.update(
                tx,
                "DELETE FROM organization_features WHERE organization_id = ? AND name = ?",
                organizationId,
                name.wireName());
    }

    @Override
    public List<String> subOrganizationIds(Tx tx, String parentId, SubOrganizationFilter filter, Pagination page) {
        StringBuilder where = new StringBuilder(" WHERE o.parent_id = ?");
        List<Object> args = new ArrayList<>(List.of(parentId));
        matching(filter, where, args);
        Optional<String> cursor = page.after().or(page::before);
        boolean backwards = page.before().isPresent();
        if (cursor.isPresent()) {
            long cursorTime = Sql.count(tx, "SELECT created_at FROM organizations WHERE id = ?", cursor.get());
            String cmp = backwards ? "<" : ">";
            where.append(" AND (o.created_at ")
                    .append(cmp)
                    .append(" ? OR (o.created_at = ? AND o.id ")
                    .append(cmp)
                    .append(" ?))");
            args.add(cursorTime);
            args.add(cursorTime);
            args.add(cursor.get());
        }
        // before: the page just before the cursor, read backwards from it, then put back in list order.
        String order = backwards ? " ORDER BY o.created_at DESC, o.id DESC" : " ORDER BY o.created_at, o.id";
        args.add(page.limit());
        List<String> ids = new ArrayList<>(Sql.list(
                tx,
                "SELECT o.id FROM organizations o" + where + order + " LIMIT ?",
                rs -> rs.getString(1),
                args.toArray()));
        if (backwards) {
            Collections.reverse(ids);
        }
        return ids;
    }

    /** Appends the filter's condition on the sub-organization {@code o} to {@code where}. */
    private static void matching(SubOrganizationFilter filter, StringBuilder where, List<Object> args) {
        String user = " AND EXISTS (SELECT 1 FROM users u WHERE u.organization_id = o.id AND ";
        switch (filter) {
            case SubOrganizationFilter.All all -> {
                // every sub-organization
            }
            case SubOrganizationFilter.Name name -> {
                where.append(" AND o.name = ?");
                args.add(name.name());
            }
            case SubOrganizationFilter.Username name -> {
                where.append(user).append("u.name = ?)");
                args.add(name.name());
            }
            case SubOrganizationFilter.Email email -> {
                where.append(user)
                        .append("u.email_normalized = ?")
                        .append(email.verifiedOnly() ? " AND u.email_verified" : "")
                        .append(')');
                args.add(email.normalized());
            }
            case SubOrganizationFilter.PhoneNumber phone -> {
                where.append(user)
                        .append("u.phone_number = ?")
                        .append(phone.verifiedOnly() ? " AND u.phone_number_verified" : "")
                        .append(')');
                args.add(phone.number());
            }
            case SubOrganizationFilter.CredentialId credential -> {
                where.append(" AND EXISTS (SELECT 1 FROM authenticators a WHERE a.organization_id = o.id "
                        + "AND a.credential_id = ?)");
                args.add(credential.credentialId());
            }
            case SubOrganizationFilter.PublicKey key -> {
                where.append(" AND (EXISTS (SELECT 1 FROM api_keys k WHERE k.organization_id = o.id "
                        + "AND k.public_key = ?) OR EXISTS (SELECT 1 FROM authenticators a "
                        + "WHERE a.organization_id = o.id AND a.public_key = ?))");
                args.add(key.publicKey());
                args.add(key.publicKey());
            }
            case SubOrganizationFilter.Address address -> {
                where.append(" AND (EXISTS (SELECT 1 FROM wallet_accounts w WHERE w.organization_id = o.id "
                        + "AND w.address_key = ?) OR EXISTS (SELECT 1 FROM private_key_addresses p "
                        + "WHERE p.organization_id = o.id AND p.address_key = ?))");
                args.add(address.addressKey());
                args.add(address.addressKey());
            }
            case SubOrganizationFilter.OauthIdentity identity -> {
                where.append(" AND EXISTS (SELECT 1 FROM oauth_providers p WHERE p.organization_id = o.id "
                        + "AND p.issuer = ? AND p.subject = ? AND p.audience = ?)");
                args.add(identity.issuer());
                args.add(identity.subject());
                args.add(identity.audience());
            }
        }
    }

    @Override
    public boolean holdsUnexportedKeys(Tx tx, String organizationId) {
        return Sql.exists(
                        tx,
                        "SELECT 1 FROM wallets WHERE organization_id = ? AND exported = ? LIMIT 1",
                        organizationId,
                        false)
                || Sql.exists(
                        tx,
                        "SELECT 1 FROM private_keys WHERE organization_id = ? AND exported = ? LIMIT 1",
                        organizationId,
                        false);
    }

    @Override
    public void delete(Tx tx, String organizationId) {
        // Its row holds the chain's head: appended to while it exists, the head kept for what this transaction notes
        // later.
        JdbcAuditLog.beforeOrganizationDeleted(JdbcTx.of(tx), organizationId);
        // Children before parents: both stores enforce the foreign keys. Activities and votes have none and stay.
        for (String statement : List.of(
                "DELETE FROM private_key_tags WHERE private_key_id IN "
                        + "(SELECT id FROM private_keys WHERE organization_id = ?)",
                "DELETE FROM private_key_addresses WHERE organization_id = ?",
                "DELETE FROM private_keys WHERE organization_id = ?",
                "DELETE FROM wallet_accounts WHERE organization_id = ?",
                "DELETE FROM wallets WHERE organization_id = ?",
                "DELETE FROM user_tags WHERE tag_id IN (SELECT id FROM tags WHERE organization_id = ?)",
                "DELETE FROM tags WHERE organization_id = ?",
                "DELETE FROM root_quorum_members WHERE organization_id = ?",
                "DELETE FROM api_keys WHERE organization_id = ?",
                "DELETE FROM authenticators WHERE organization_id = ?",
                "DELETE FROM oauth_providers WHERE organization_id = ?",
                "DELETE FROM oauth2_credentials WHERE organization_id = ?",
                "DELETE FROM smart_contract_interfaces WHERE organization_id = ?",
                "DELETE FROM policies WHERE organization_id = ?",
                "DELETE FROM import_targets WHERE organization_id = ?",
                "DELETE FROM otp_codes WHERE organization_id = ?",
                "DELETE FROM auth_proxy_configs WHERE organization_id = ?",
                "DELETE FROM webhook_deliveries WHERE organization_id = ?",
                "DELETE FROM webhook_endpoints WHERE organization_id = ?",
                "DELETE FROM tvc_manifest_approvals WHERE manifest_id IN "
                        + "(SELECT manifest_id FROM tvc_deployments WHERE organization_id = ?)",
                "DELETE FROM tvc_deployments WHERE organization_id = ?",
                "DELETE FROM tvc_apps WHERE organization_id = ?",
                "DELETE FROM tvc_operator_set_members WHERE set_id IN "
                        + "(SELECT id FROM tvc_operator_sets WHERE organization_id = ?)",
                "DELETE FROM tvc_operator_sets WHERE organization_id = ?",
                "DELETE FROM tvc_operators WHERE organization_id = ?",
                "DELETE FROM organization_features WHERE organization_id = ?",
                "DELETE FROM users WHERE organization_id = ?",
                "DELETE FROM organizations WHERE id = ?")) {
            Sql.update(tx, statement, organizationId);
        }
    }

    @Override
    public void markContactVerified(Tx tx, String userId, boolean email) {
        Sql.update(
                tx,
                email
                        ? "UPDATE users SET email_verified = ? WHERE id = ?"
                        : "UPDATE users SET phone_number_verified = ? WHERE id = ?",
                true,
                userId);
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
