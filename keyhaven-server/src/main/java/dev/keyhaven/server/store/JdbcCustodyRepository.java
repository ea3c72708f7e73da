package dev.keyhaven.server.store;

import dev.keyhaven.server.custody.CustodyRepository;
import dev.keyhaven.server.custody.SealedSecret;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.Optional;

/** The KEK check value and the deployment's signers (rows of {@code bundle_signer}, one per role). */
public final class JdbcCustodyRepository implements CustodyRepository {
    private static final String CHECK_ID = "kek";

    @Override
    public Optional<SealedSecret> masterKeyCheck(Tx tx) {
        return Sql.one(
                tx,
                "SELECT sealed FROM master_key_check WHERE id = ?",
                rs -> new SealedSecret(rs.getString(1)),
                CHECK_ID);
    }

    @Override
    public void insertMasterKeyCheck(Tx tx, SealedSecret check, Instant createdAt) {
        Sql.update(
                tx,
                "INSERT INTO master_key_check (id, sealed, created_at) VALUES (?, ?, ?)",
                CHECK_ID,
                check.base64(),
                createdAt);
    }

    @Override
    public Optional<StoredSigner> signer(Tx tx, String role) {
        return Sql.one(
                tx,
                "SELECT public_key, key_sealed FROM bundle_signer WHERE id = ?",
                rs -> new StoredSigner(rs.getString(1), new SealedSecret(rs.getString(2))),
                role);
    }

    @Override
    public void insertSigner(Tx tx, String role, StoredSigner signer, Instant createdAt) {
        Sql.update(
                tx,
                "INSERT INTO bundle_signer (id, public_key, key_sealed, created_at) VALUES (?, ?, ?, ?)",
                role,
                signer.publicKeyHex(),
                signer.sealedKey().base64(),
                createdAt);
    }
}
