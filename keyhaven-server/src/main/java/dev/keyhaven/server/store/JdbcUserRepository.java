package dev.keyhaven.server.store;

import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.WireEnum;
import dev.keyhaven.server.tx.Tx;
import dev.keyhaven.server.user.ApiKey;
import dev.keyhaven.server.user.ApiKeyCurve;
import dev.keyhaven.server.user.Authenticator;
import dev.keyhaven.server.user.AuthenticatorTransport;
import dev.keyhaven.server.user.Tag;
import dev.keyhaven.server.user.TagType;
import dev.keyhaven.server.user.User;
import dev.keyhaven.server.user.UserRepository;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/** Users, API keys, authenticators and tags. */
public final class JdbcUserRepository implements UserRepository {
    private static final String USER_COLUMNS = "id, organization_id, name, email, phone_number, created_at, updated_at";
    private static final String KEY_COLUMNS = "id, organization_id, user_id, name, public_key, curve, "
            + "expiration_seconds, expires_at, created_at, updated_at, credential_type";
    private static final String AUTHENTICATOR_COLUMNS = "id, organization_id, user_id, name, credential_id, "
            + "public_key, public_key_cose, aaguid, attestation_type, transports, model, sign_count, rp_id, "
            + "created_at, updated_at";
    private static final String TAG_COLUMNS = "id, organization_id, name, tag_type, created_at, updated_at";

    @Override
    public void lockOrganization(Tx tx, String organizationId) {
        Sql.lockOrganization(tx, organizationId);
    }

    @Override
    public void insert(Tx tx, User u) {
        Sql.update(
                tx,
                "INSERT INTO users (id, organization_id, name, email, email_normalized, phone_number, "
                        + "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                u.id(),
                u.organizationId(),
                u.name(),
                u.email(),
                u.email().map(e -> e.toLowerCase(Locale.ROOT)),
                u.phoneNumber(),
                u.createdAt(),
                u.updatedAt());
    }

    @Override
    public boolean reserveUsers(Tx tx, String organizationId, int count, int limit) {
        return Sql.update(
                        tx,
                        "UPDATE organizations SET user_count = user_count + ? "
                                + "WHERE id = ? AND user_count + ? <= ?",
                        count,
                        organizationId,
                        count,
                        limit)
                == 1;
    }

    @Override
    public void lockUser(Tx tx, String organizationId, String userId) {
        Dialect dialect = JdbcTx.of(tx).dialect();
        if (dialect == Dialect.POSTGRESQL) {
            Sql.list(
                    tx,
                    "SELECT id FROM users WHERE organization_id = ? AND id = ?" + dialect.forUpdate(),
                    rs -> rs.getString(1),
                    organizationId,
                    userId);
        }
    }

    @Override
    public Optional<User> find(Tx tx, String organizationId, String userId) {
        return Sql.one(
                tx,
                "SELECT " + USER_COLUMNS + " FROM users WHERE organization_id = ? AND id = ?",
                JdbcUserRepository::user,
                organizationId,
                userId);
    }

    @Override
    public List<User> list(Tx tx, String organizationId) {
        return Sql.list(
                tx,
                "SELECT " + USER_COLUMNS + " FROM users WHERE organization_id = ? ORDER BY created_at, id",
                JdbcUserRepository::user,
                organizationId);
    }

    @Override
    public Optional<String> userWithEmail(Tx tx, String organizationId, String email) {
        return Sql.one(
                tx,
                "SELECT id FROM users WHERE organization_id = ? AND email_normalized = ?",
                rs -> rs.getString(1),
                organizationId,
                email.toLowerCase(Locale.ROOT));
    }

    @Override
    public void update(Tx tx, User u) {
        Sql.update(
                tx,
                // A changed contact is no longer the one the user proved they receive.
                "UPDATE users SET email_verified = (email_verified AND COALESCE(email_normalized = ?, FALSE)), "
                        + "phone_number_verified = (phone_number_verified AND COALESCE(phone_number = ?, FALSE)), "
                        + "name = ?, email = ?, email_normalized = ?, phone_number = ?, updated_at = ? "
                        + "WHERE organization_id = ? AND id = ?",
                u.email().map(e -> e.toLowerCase(Locale.ROOT)),
                u.phoneNumber(),
                u.name(),
                u.email(),
                u.email().map(e -> e.toLowerCase(Locale.ROOT)),
                u.phoneNumber(),
                u.updatedAt(),
                u.organizationId(),
                u.id());
    }

    @Override
    public void delete(Tx tx, String organizationId, String userId) {
        Sql.update(tx, "DELETE FROM api_keys WHERE organization_id = ? AND user_id = ?", organizationId, userId);
        Sql.update(tx, "DELETE FROM authenticators WHERE organization_id = ? AND user_id = ?", organizationId, userId);
        Sql.update(tx, "DELETE FROM oauth_providers WHERE organization_id = ? AND user_id = ?", organizationId, userId);
        Sql.update(tx, "DELETE FROM user_tags WHERE user_id = ?", userId);
        Sql.update(
                tx,
                "DELETE FROM root_quorum_members WHERE organization_id = ? AND user_id = ?",
                organizationId,
                userId);
        if (Sql.update(tx, "DELETE FROM users WHERE organization_id = ? AND id = ?", organizationId, userId) > 0) {
            Sql.update(tx, "UPDATE organizations SET user_count = user_count - 1 WHERE id = ?", organizationId);
        }
    }

    @Override
    public List<String> rootQuorumUserIds(Tx tx, String organizationId) {
        return Sql.list(
                tx,
                "SELECT user_id FROM root_quorum_members WHERE organization_id = ?",
                rs -> rs.getString(1),
                organizationId);
    }

    @Override
    public void insertApiKey(Tx tx, ApiKey k) {
        Sql.update(
                tx,
                "INSERT INTO api_keys (" + KEY_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, " + "?, ?, ?)",
                k.id(),
                k.organizationId(),
                k.userId(),
                k.name(),
                k.publicKey(),
                k.curve().wireName(),
                k.expirationSeconds(),
                k.expiresAt(),
                k.createdAt(),
                k.updatedAt(),
                k.credentialType());
    }

    // Email-recovery credentials are api_keys rows too (so stamps with them resolve), but not API keys the user
    // manages: they are neither listed nor counted against the key limits.
    private static final String NOT_RECOVERY = " AND credential_type <> '" + Caller.RECOVERY_CREDENTIAL_TYPE + "'";

    @Override
    public Optional<ApiKey> findApiKey(Tx tx, String organizationId, String apiKeyId) {
        return Sql.one(
                tx,
                "SELECT " + KEY_COLUMNS + " FROM api_keys WHERE organization_id = ? AND id = ?" + NOT_RECOVERY,
                JdbcUserRepository::apiKey,
                organizationId,
                apiKeyId);
    }

    @Override
    public List<ApiKey> apiKeys(Tx tx, String organizationId, Optional<String> userId) {
        return userId.isPresent()
                ? Sql.list(
                        tx,
                        "SELECT " + KEY_COLUMNS + " FROM api_keys WHERE organization_id = ? AND user_id = ?"
                                + NOT_RECOVERY + " ORDER BY created_at, id",
                        JdbcUserRepository::apiKey,
                        organizationId,
                        userId.get())
                : Sql.list(
                        tx,
                        "SELECT " + KEY_COLUMNS + " FROM api_keys WHERE organization_id = ?" + NOT_RECOVERY
                                + " ORDER BY created_at, id",
                        JdbcUserRepository::apiKey,
                        organizationId);
    }

    @Override
    public boolean publicKeyInUse(Tx tx, String organizationId, String publicKey) {
        return Sql.exists(
                tx, "SELECT 1 FROM api_keys WHERE organization_id = ? AND public_key = ?", organizationId, publicKey);
    }

    @Override
    public void deleteApiKey(Tx tx, String organizationId, String apiKeyId) {
        Sql.update(tx, "DELETE FROM api_keys WHERE organization_id = ? AND id = ?", organizationId, apiKeyId);
    }

    @Override
    public void insertAuthenticator(Tx tx, Authenticator a) {
        Sql.update(
                tx,
                "INSERT INTO authenticators (" + AUTHENTICATOR_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
                        + "?, ?, ?, ?, ?, ?, ?)",
                a.id(),
                a.organizationId(),
                a.userId(),
                a.name(),
                a.credentialId(),
                a.publicKey(),
                a.publicKeyCose(),
                a.aaguid(),
                a.attestationType(),
                a.transports().stream().map(AuthenticatorTransport::wireName).collect(Collectors.joining(",")),
                a.model(),
                a.signCount(),
                a.rpId(),
                a.createdAt(),
                a.updatedAt());
    }

    @Override
    public Optional<Authenticator> findAuthenticator(Tx tx, String organizationId, String authenticatorId) {
        return Sql.one(
                tx,
                "SELECT " + AUTHENTICATOR_COLUMNS + " FROM authenticators WHERE organization_id = ? " + "AND id = ?",
                JdbcUserRepository::authenticator,
                organizationId,
                authenticatorId);
    }

    @Override
    public List<Authenticator> authenticators(Tx tx, String organizationId, Optional<String> userId) {
        return userId.isPresent()
                ? Sql.list(
                        tx,
                        "SELECT " + AUTHENTICATOR_COLUMNS + " FROM authenticators WHERE organization_id = ? "
                                + "AND user_id = ? ORDER BY created_at, id",
                        JdbcUserRepository::authenticator,
                        organizationId,
                        userId.get())
                : Sql.list(
                        tx,
                        "SELECT " + AUTHENTICATOR_COLUMNS + " FROM authenticators WHERE organization_id = ? "
                                + "ORDER BY created_at, id",
                        JdbcUserRepository::authenticator,
                        organizationId);
    }

    @Override
    public boolean credentialIdInUse(Tx tx, String organizationId, String credentialId) {
        return Sql.exists(
                tx,
                "SELECT 1 FROM authenticators WHERE organization_id = ? AND credential_id = ?",
                organizationId,
                credentialId);
    }

    @Override
    public void deleteAuthenticator(Tx tx, String organizationId, String authenticatorId) {
        Sql.update(
                tx, "DELETE FROM authenticators WHERE organization_id = ? AND id = ?", organizationId, authenticatorId);
    }

    @Override
    public void insertTag(Tx tx, Tag t) {
        Sql.update(
                tx,
                "INSERT INTO tags (" + TAG_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?)",
                t.id(),
                t.organizationId(),
                t.name(),
                t.type().wireName(),
                t.createdAt(),
                t.updatedAt());
    }

    @Override
    public Optional<Tag> findTag(Tx tx, String organizationId, String tagId) {
        return Sql.one(
                tx,
                "SELECT " + TAG_COLUMNS + " FROM tags WHERE organization_id = ? AND id = ?",
                JdbcUserRepository::tag,
                organizationId,
                tagId);
    }

    @Override
    public Optional<Tag> findTagByName(Tx tx, String organizationId, TagType type, String name) {
        return Sql.one(
                tx,
                "SELECT " + TAG_COLUMNS + " FROM tags WHERE organization_id = ? AND tag_type = ? " + "AND name = ?",
                JdbcUserRepository::tag,
                organizationId,
                type.wireName(),
                name);
    }

    @Override
    public List<Tag> tags(Tx tx, String organizationId, Optional<TagType> type) {
        return type.isPresent()
                ? Sql.list(
                        tx,
                        "SELECT " + TAG_COLUMNS + " FROM tags WHERE organization_id = ? AND tag_type = ? "
                                + "ORDER BY created_at, id",
                        JdbcUserRepository::tag,
                        organizationId,
                        type.get().wireName())
                : Sql.list(
                        tx,
                        "SELECT " + TAG_COLUMNS + " FROM tags WHERE organization_id = ? ORDER BY created_at, id",
                        JdbcUserRepository::tag,
                        organizationId);
    }

    @Override
    public int countTags(Tx tx, String organizationId) {
        return (int) Sql.count(tx, "SELECT COUNT(*) FROM tags WHERE organization_id = ?", organizationId);
    }

    @Override
    public void tagUser(Tx tx, String tagId, String userId) {
        Sql.update(tx, "INSERT INTO user_tags (tag_id, user_id) VALUES (?, ?)", tagId, userId);
    }

    @Override
    public void untagUser(Tx tx, String tagId, String userId) {
        Sql.update(tx, "DELETE FROM user_tags WHERE tag_id = ? AND user_id = ?", tagId, userId);
    }

    @Override
    public List<String> usersWithTag(Tx tx, String tagId) {
        return Sql.list(
                tx,
                "SELECT ut.user_id FROM user_tags ut JOIN users u ON u.id = ut.user_id WHERE ut.tag_id = ? "
                        + "ORDER BY u.created_at, u.id",
                rs -> rs.getString(1),
                tagId);
    }

    @Override
    public void renameTag(Tx tx, String tagId, String name, java.time.Instant updatedAt) {
        Sql.update(tx, "UPDATE tags SET name = ?, updated_at = ? WHERE id = ?", name, updatedAt, tagId);
    }

    @Override
    public void deleteTag(Tx tx, String organizationId, String tagId) {
        Sql.update(tx, "DELETE FROM user_tags WHERE tag_id = ?", tagId);
        Sql.update(tx, "DELETE FROM tags WHERE organization_id = ? AND id = ?", organizationId, tagId);
    }

    @Override
    public List<String> tagIdsOfUser(Tx tx, String userId) {
        return Sql.list(
                tx,
                "SELECT ut.tag_id FROM user_tags ut JOIN tags t ON t.id = ut.tag_id WHERE ut.user_id = ? "
                        + "ORDER BY t.created_at, t.id",
                rs -> rs.getString(1),
                userId);
    }

    @Override
    public Map<String, List<String>> userTagIds(Tx tx, String organizationId) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        Sql.list(
                tx,
                "SELECT ut.user_id, ut.tag_id FROM user_tags ut JOIN tags t ON t.id = ut.tag_id "
                        + "WHERE t.organization_id = ? ORDER BY t.created_at, t.id",
                rs -> {
                    out.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getString(2));
                    return null;
                },
                organizationId);
        return out;
    }

    @Override
    public List<String> missingUsers(Tx tx, String organizationId, Collection<String> userIds) {
        if (userIds.isEmpty()) {
            return List.of();
        }
        Set<String> wanted = new LinkedHashSet<>(userIds);
        List<Object> args = new ArrayList<>();
        args.add(organizationId);
        args.addAll(wanted);
        Set<String> found = Set.copyOf(Sql.list(
                tx,
                "SELECT id FROM users WHERE organization_id = ? AND id IN (" + Sql.placeholders(wanted.size()) + ")",
                rs -> rs.getString(1),
                args.toArray()));
        return wanted.stream().filter(id -> !found.contains(id)).toList();
    }

    @Override
    public boolean isSubOrganization(Tx tx, String organizationId) {
        return Sql.exists(tx, "SELECT 1 FROM organizations WHERE id = ? AND parent_id IS NOT NULL", organizationId);
    }

    private static User user(ResultSet rs) throws SQLException {
        return new User(
                rs.getString("id"),
                rs.getString("organization_id"),
                rs.getString("name"),
                Optional.ofNullable(rs.getString("email")),
                Optional.ofNullable(rs.getString("phone_number")),
                Sql.instant(rs, "created_at"),
                Sql.instant(rs, "updated_at"));
    }

    private static ApiKey apiKey(ResultSet rs) throws SQLException {
        return new ApiKey(
                rs.getString("id"),
                rs.getString("organization_id"),
                rs.getString("user_id"),
                rs.getString("name"),
                rs.getString("public_key"),
                WireEnum.fromWire(ApiKeyCurve.class, rs.getString("curve")).orElseThrow(),
                rs.getString("credential_type"),
                Sql.optionalLong(rs, "expiration_seconds"),
                Sql.optionalInstant(rs, "expires_at"),
                Sql.instant(rs, "created_at"),
                Sql.instant(rs, "updated_at"));
    }

    private static Authenticator authenticator(ResultSet rs) throws SQLException {
        String transports = rs.getString("transports");
        List<AuthenticatorTransport> parsed = transports.isEmpty()
                ? List.of()
                : Arrays.stream(transports.split(","))
                        .map(t -> WireEnum.fromWire(AuthenticatorTransport.class, t)
                                .orElseThrow())
                        .toList();
        return new Authenticator(
                rs.getString("id"),
                rs.getString("organization_id"),
                rs.getString("user_id"),
                rs.getString("name"),
                rs.getString("credential_id"),
                rs.getString("public_key"),
                rs.getString("public_key_cose"),
                rs.getString("aaguid"),
                rs.getString("attestation_type"),
                parsed,
                rs.getString("model"),
                rs.getLong("sign_count"),
                rs.getString("rp_id"),
                Sql.instant(rs, "created_at"),
                Sql.instant(rs, "updated_at"));
    }

    private static Tag tag(ResultSet rs) throws SQLException {
        return new Tag(
                rs.getString("id"),
                rs.getString("organization_id"),
                rs.getString("name"),
                WireEnum.fromWire(TagType.class, rs.getString("tag_type")).orElseThrow(),
                Sql.instant(rs, "created_at"),
                Sql.instant(rs, "updated_at"));
    }
}
