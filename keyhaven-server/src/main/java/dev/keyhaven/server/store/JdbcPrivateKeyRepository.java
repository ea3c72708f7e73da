package dev.keyhaven.server.store;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.address.AddressFormat;
import dev.keyhaven.crypto.address.Addresses;
import dev.keyhaven.server.custody.SealedSecret;
import dev.keyhaven.server.privatekey.PrivateKey;
import dev.keyhaven.server.privatekey.PrivateKeyAddress;
import dev.keyhaven.server.privatekey.PrivateKeyRepository;
import dev.keyhaven.server.tx.Tx;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/** Private keys, their addresses and tag memberships. */
public final class JdbcPrivateKeyRepository implements PrivateKeyRepository {
    private static final String COLUMNS =
            "id, organization_id, name, curve, public_key, exported, imported, " + "created_at, updated_at";

    @Override
    public void insert(Tx tx, PrivateKey k, SealedSecret sealedKey) {
        Sql.update(
                tx,
                "INSERT INTO private_keys (" + COLUMNS + ", key_sealed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                k.id(),
                k.organizationId(),
                k.name(),
                k.curve().wireName(),
                k.publicKey(),
                k.exported(),
                k.imported(),
                k.createdAt(),
                k.updatedAt(),
                sealedKey.base64());
        for (int i = 0; i < k.addresses().size(); i++) {
            PrivateKeyAddress a = k.addresses().get(i);
            Sql.update(
                    tx,
                    "INSERT INTO private_key_addresses (private_key_id, position, organization_id, "
                            + "address_format, address, address_key) VALUES (?, ?, ?, ?, ?, ?)",
                    k.id(),
                    i,
                    k.organizationId(),
                    a.format().wireName(),
                    a.address(),
                    Addresses.lookupKey(a.address()));
        }
    }

    @Override
    public int count(Tx tx, String organizationId) {
        return (int) Sql.count(tx, "SELECT COUNT(*) FROM private_keys WHERE organization_id = ?", organizationId);
    }

    @Override
    public boolean nameTaken(Tx tx, String organizationId, String name) {
        return Sql.exists(
                tx, "SELECT 1 FROM private_keys WHERE organization_id = ? AND name = ?", organizationId, name);
    }

    @Override
    public Optional<PrivateKey> find(Tx tx, String organizationId, String privateKeyId) {
        return withAddresses(
                        tx,
                        Sql.list(
                                tx,
                                "SELECT " + COLUMNS + " FROM private_keys WHERE organization_id = ? " + "AND id = ?",
                                JdbcPrivateKeyRepository::key,
                                organizationId,
                                privateKeyId))
                .stream()
                .findFirst();
    }

    @Override
    public List<PrivateKey> list(Tx tx, String organizationId) {
        return withAddresses(
                tx,
                Sql.list(
                        tx,
                        "SELECT " + COLUMNS + " FROM private_keys WHERE organization_id = ? " + "ORDER BY id",
                        JdbcPrivateKeyRepository::key,
                        organizationId));
    }

    @Override
    public List<String> missing(Tx tx, String organizationId, Collection<String> privateKeyIds) {
        Set<String> wanted = new LinkedHashSet<>(privateKeyIds);
        if (wanted.isEmpty()) {
            return List.of();
        }
        List<Object> args = new ArrayList<>();
        args.add(organizationId);
        args.addAll(wanted);
        Set<String> found = Set.copyOf(Sql.list(
                tx,
                "SELECT id FROM private_keys WHERE organization_id = ? AND id IN (" + Sql.placeholders(wanted.size())
                        + ")",
                rs -> rs.getString(1),
                args.toArray()));
        return wanted.stream().filter(id -> !found.contains(id)).toList();
    }

    @Override
    public Optional<PrivateKey> findByAddress(Tx tx, String organizationId, String addressKey) {
        return Sql.list(
                        tx,
                        "SELECT private_key_id FROM private_key_addresses WHERE organization_id = ? "
                                + "AND address_key = ? ORDER BY private_key_id LIMIT 1",
                        rs -> rs.getString(1),
                        organizationId,
                        addressKey)
                .stream()
                .findFirst()
                .flatMap(id -> find(tx, organizationId, id));
    }

    @Override
    public SealedSecret sealedKey(Tx tx, String organizationId, String privateKeyId) {
        return Sql.one(
                        tx,
                        "SELECT key_sealed FROM private_keys WHERE organization_id = ? AND id = ?",
                        rs -> new SealedSecret(rs.getString(1)),
                        organizationId,
                        privateKeyId)
                .orElseThrow();
    }

    @Override
    public void markExported(Tx tx, String organizationId, String privateKeyId, java.time.Instant updatedAt) {
        Sql.update(
                tx,
                "UPDATE private_keys SET exported = ?, updated_at = ? WHERE organization_id = ? AND id = ?",
                true,
                updatedAt,
                organizationId,
                privateKeyId);
    }

    @Override
    public void delete(Tx tx, String organizationId, String privateKeyId) {
        Sql.update(tx, "DELETE FROM private_key_tags WHERE private_key_id = ?", privateKeyId);
        Sql.update(
                tx,
                "DELETE FROM private_key_addresses WHERE organization_id = ? AND private_key_id = ?",
                organizationId,
                privateKeyId);
        Sql.update(tx, "DELETE FROM private_keys WHERE organization_id = ? AND id = ?", organizationId, privateKeyId);
    }

    @Override
    public void tag(Tx tx, String tagId, String privateKeyId) {
        Sql.update(tx, "INSERT INTO private_key_tags (tag_id, private_key_id) VALUES (?, ?)", tagId, privateKeyId);
    }

    @Override
    public void untag(Tx tx, String tagId, String privateKeyId) {
        Sql.update(tx, "DELETE FROM private_key_tags WHERE tag_id = ? AND private_key_id = ?", tagId, privateKeyId);
    }

    @Override
    public void untagAll(Tx tx, String tagId) {
        Sql.update(tx, "DELETE FROM private_key_tags WHERE tag_id = ?", tagId);
    }

    @Override
    public List<String> keysWithTag(Tx tx, String tagId) {
        return Sql.list(
                tx,
                "SELECT private_key_id FROM private_key_tags WHERE tag_id = ? ORDER BY private_key_id",
                rs -> rs.getString(1),
                tagId);
    }

    @Override
    public Map<String, List<String>> tagIdsByKey(Tx tx, String organizationId) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        Sql.list(
                tx,
                "SELECT pt.private_key_id, pt.tag_id FROM private_key_tags pt JOIN tags t ON t.id = pt.tag_id "
                        + "WHERE t.organization_id = ? ORDER BY t.created_at, t.id",
                rs -> {
                    out.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getString(2));
                    return null;
                },
                organizationId);
        return out;
    }

    /** Loads the addresses of all {@code keys} in one query. */
    private static List<PrivateKey> withAddresses(Tx tx, List<PrivateKey> keys) {
        if (keys.isEmpty()) {
            return keys;
        }
        List<Object> ids = keys.stream().map(PrivateKey::id).collect(Collectors.toList());
        Map<String, List<PrivateKeyAddress>> addresses = new LinkedHashMap<>();
        Sql.list(
                tx,
                "SELECT private_key_id, address_format, address FROM private_key_addresses WHERE private_key_id "
                        + "IN (" + Sql.placeholders(ids.size()) + ") ORDER BY private_key_id, position",
                rs -> {
                    addresses
                            .computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                            .add(new PrivateKeyAddress(
                                    AddressFormat.fromWire(rs.getString(2)).orElseThrow(), rs.getString(3)));
                    return null;
                },
                ids.toArray());
        return keys.stream()
                .map(k -> new PrivateKey(
                        k.id(),
                        k.organizationId(),
                        k.name(),
                        k.curve(),
                        k.publicKey(),
                        List.copyOf(addresses.getOrDefault(k.id(), List.of())),
                        k.exported(),
                        k.imported(),
                        k.createdAt(),
                        k.updatedAt()))
                .toList();
    }

    private static PrivateKey key(ResultSet rs) throws SQLException {
        return new PrivateKey(
                rs.getString("id"),
                rs.getString("organization_id"),
                rs.getString("name"),
                KeyCurve.fromWire(rs.getString("curve")).orElseThrow(),
                rs.getString("public_key"),
                List.of(),
                rs.getBoolean("exported"),
                rs.getBoolean("imported"),
                Sql.instant(rs, "created_at"),
                Sql.instant(rs, "updated_at"));
    }
}
