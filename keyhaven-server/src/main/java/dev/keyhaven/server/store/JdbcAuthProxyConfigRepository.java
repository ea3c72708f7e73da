package dev.keyhaven.server.store;

import dev.keyhaven.server.authproxy.AuthProxyConfigRepository;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Auth-proxy configurations ({@code auth_proxy_configs}). */
public final class JdbcAuthProxyConfigRepository implements AuthProxyConfigRepository {

    @Override
    public void insert(Tx tx, Stored config, Instant now) {
        Sql.update(
                tx,
                "INSERT INTO auth_proxy_configs (id, organization_id, settings, created_at, updated_at) "
                        + "VALUES (?, ?, ?, ?, ?)",
                config.id(),
                config.organizationId(),
                config.settings(),
                now,
                now);
    }

    @Override
    public void update(Tx tx, Stored config, Instant now) {
        Sql.update(
                tx,
                "UPDATE auth_proxy_configs SET settings = ?, updated_at = ? WHERE id = ?",
                config.settings(),
                now,
                config.id());
    }

    @Override
    public Optional<Stored> find(Tx tx, String id) {
        return Sql.one(
                tx,
                "SELECT id, organization_id, settings FROM auth_proxy_configs WHERE id = ?",
                rs -> new Stored(rs.getString(1), rs.getString(2), rs.getString(3)),
                id);
    }

    @Override
    public List<Stored> all(Tx tx) {
        return Sql.list(
                tx,
                "SELECT id, organization_id, settings FROM auth_proxy_configs ORDER BY created_at, id",
                rs -> new Stored(rs.getString(1), rs.getString(2), rs.getString(3)));
    }
}
