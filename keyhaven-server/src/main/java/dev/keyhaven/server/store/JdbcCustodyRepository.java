package dev.keyhaven.server.store;

import dev.keyhaven.server.custody.CustodyRepository;
import dev.keyhaven.server.custody.SealedSecret;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.Optional;

/** The KEK check value. */
public final class JdbcCustodyRepository implements CustodyRepository {
    private static final String CHECK_ID = "kek";

    @Override
    public Optional<SealedSecret> masterKeyCheck(Tx tx) {
        return Sql.one(tx, "SELECT sealed FROM master_key_check WHERE id = ?", rs -> new SealedSecret(rs.getString(1)),
                CHECK_ID);
    }

    @Override
    public void insertMasterKeyCheck(Tx tx, SealedSecret check, Instant createdAt) {
        Sql.update(tx, "INSERT INTO master_key_check (id, sealed, created_at) VALUES (?, ?, ?)", CHECK_ID,
                check.base64(), createdAt);
    }
}
