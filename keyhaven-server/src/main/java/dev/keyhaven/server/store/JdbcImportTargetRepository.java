package dev.keyhaven.server.store;

import dev.keyhaven.server.custody.SealedSecret;
import dev.keyhaven.server.keyimport.ImportKind;
import dev.keyhaven.server.keyimport.ImportTarget;
import dev.keyhaven.server.keyimport.ImportTargetRepository;
import dev.keyhaven.server.tx.Tx;
import java.util.Optional;

/** Import targets (V6). */
public final class JdbcImportTargetRepository implements ImportTargetRepository {
    private static final String COLUMNS =
            "id, organization_id, user_id, kind, public_key, key_sealed, created_at, " + "expires_at";

    @Override
    public void insert(Tx tx, ImportTarget t) {
        Sql.update(
                tx,
                "INSERT INTO import_targets (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                t.id(),
                t.organizationId(),
                t.userId(),
                t.kind().name(),
                t.publicKey(),
                t.sealedKey().base64(),
                t.createdAt(),
                t.expiresAt());
    }

    @Override
    public Optional<ImportTarget> latest(Tx tx, String organizationId, String userId, ImportKind kind) {
        return Sql.one(
                tx,
                "SELECT " + COLUMNS + " FROM import_targets WHERE organization_id = ? AND user_id = ? "
                        + "AND kind = ? ORDER BY created_at DESC, id DESC LIMIT 1",
                rs -> new ImportTarget(
                        rs.getString("id"),
                        rs.getString("organization_id"),
                        rs.getString("user_id"),
                        ImportKind.valueOf(rs.getString("kind")),
                        rs.getString("public_key"),
                        new SealedSecret(rs.getString("key_sealed")),
                        Sql.instant(rs, "created_at"),
                        Sql.instant(rs, "expires_at")),
                organizationId,
                userId,
                kind.name());
    }

    @Override
    public void deleteAll(Tx tx, String organizationId, String userId, ImportKind kind) {
        Sql.update(
                tx,
                "DELETE FROM import_targets WHERE organization_id = ? AND user_id = ? AND kind = ?",
                organizationId,
                userId,
                kind.name());
    }
}
