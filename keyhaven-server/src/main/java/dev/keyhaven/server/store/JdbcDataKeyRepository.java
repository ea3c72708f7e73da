package dev.keyhaven.server.store;

import dev.keyhaven.server.custody.DataKeyRepository;
import dev.keyhaven.server.custody.SealedColumn;
import dev.keyhaven.server.custody.SealedSecret;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The {@code kek} row and {@code data_keys}; and, for the start-up upgrade, the sealed columns of other tables. */
public final class JdbcDataKeyRepository implements DataKeyRepository {
    private static final String KEK_ID = "kek";
    /**
     * Base64 of a value whose first byte is 0x01 (the format before envelope encryption) starts with "A" and one of
     * these: the first byte's last two bits (01) and the next byte's first four.
     */
    private static final String LEGACY_SECOND_CHARS = "'Q','R','S','T','U','V','W','X','Y','Z','a','b','c','d','e','f'";

    @Override
    public Optional<KekRecord> kek(Tx tx) {
        return Sql.one(
                tx,
                "SELECT generation, locator, check_value FROM kek WHERE id = ?",
                JdbcDataKeyRepository::kek,
                KEK_ID);
    }

    @Override
    public Optional<KekRecord> lockKek(Tx tx, boolean exclusive) {
        // SQLite has one writer at a time, so its transactions need no row lock.
        Dialect dialect = JdbcTx.of(tx).dialect();
        String lock = dialect != Dialect.POSTGRESQL ? "" : exclusive ? " FOR UPDATE" : " FOR SHARE";
        return Sql.one(
                tx,
                "SELECT generation, locator, check_value FROM kek WHERE id = ?" + lock,
                JdbcDataKeyRepository::kek,
                KEK_ID);
    }

    private static KekRecord kek(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new KekRecord(rs.getLong(1), Optional.ofNullable(rs.getString(2)), new SealedSecret(rs.getString(3)));
    }

    @Override
    public void insertKek(Tx tx, KekRecord kek, Instant at) {
        Sql.update(
                tx,
                "INSERT INTO kek (id, generation, locator, check_value, changed_at) VALUES (?, ?, ?, ?, ?)",
                KEK_ID,
                kek.generation(),
                kek.locator().orElse(null),
                kek.check().base64(),
                at);
    }

    @Override
    public void updateKek(Tx tx, KekRecord kek, Instant at) {
        Sql.update(
                tx,
                "UPDATE kek SET generation = ?, locator = ?, check_value = ?, changed_at = ? WHERE id = ?",
                kek.generation(),
                kek.locator().orElse(null),
                kek.check().base64(),
                at,
                KEK_ID);
    }

    @Override
    public Optional<WrappedDataKey> dataKey(Tx tx, String ownerId) {
        return Sql.one(
                tx,
                "SELECT owner_id, wrapped, kek_generation FROM data_keys WHERE owner_id = ?",
                JdbcDataKeyRepository::dataKey,
                ownerId);
    }

    private static WrappedDataKey dataKey(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new WrappedDataKey(rs.getString(1), new SealedSecret(rs.getString(2)), rs.getLong(3));
    }

    @Override
    public boolean insertDataKeyIfAbsent(Tx tx, WrappedDataKey dataKey, Instant at) {
        return Sql.update(
                        tx,
                        "INSERT INTO data_keys (owner_id, wrapped, kek_generation, created_at) VALUES (?, ?, ?, ?) "
                                + "ON CONFLICT (owner_id) DO NOTHING",
                        dataKey.ownerId(),
                        dataKey.wrapped().base64(),
                        dataKey.kekGeneration(),
                        at)
                == 1;
    }

    @Override
    public List<WrappedDataKey> lockAllDataKeys(Tx tx) {
        Dialect dialect = JdbcTx.of(tx).dialect();
        return Sql.list(
                tx,
                "SELECT owner_id, wrapped, kek_generation FROM data_keys ORDER BY owner_id" + dialect.forUpdate(),
                JdbcDataKeyRepository::dataKey);
    }

    @Override
    public void updateDataKey(Tx tx, WrappedDataKey dataKey) {
        Sql.update(
                tx,
                "UPDATE data_keys SET wrapped = ?, kek_generation = ? WHERE owner_id = ?",
                dataKey.wrapped().base64(),
                dataKey.kekGeneration(),
                dataKey.ownerId());
    }

    @Override
    public List<SealedRow> legacySealed(Tx tx, SealedColumn column, int limit) {
        String owner = column.ownedByOrganization() ? column.ownerColumn() : "NULL";
        return Sql.list(
                tx,
                "SELECT id, " + owner + ", " + column.column() + " FROM " + column.table() + " WHERE " + legacy(column)
                        + " ORDER BY id LIMIT ?",
                rs -> new SealedRow(rs.getString(1), rs.getString(2), new SealedSecret(rs.getString(3))),
                limit);
    }

    @Override
    public long countLegacySealed(Tx tx, SealedColumn column) {
        return Sql.count(tx, "SELECT COUNT(*) FROM " + column.table() + " WHERE " + legacy(column));
    }

    /** Identifiers come from {@link SealedColumn#ALL}, never from a request. */
    private static String legacy(SealedColumn column) {
        return "substr(" + column.column() + ", 1, 1) = 'A' AND substr(" + column.column() + ", 2, 1) IN ("
                + LEGACY_SECOND_CHARS + ")";
    }

    @Override
    public boolean replaceSealed(Tx tx, SealedColumn column, String id, SealedSecret old, SealedSecret replacement) {
        return Sql.update(
                        tx,
                        "UPDATE " + column.table() + " SET " + column.column() + " = ? WHERE id = ? AND "
                                + column.column() + " = ?",
                        replacement.base64(),
                        id,
                        old.base64())
                == 1;
    }
}
