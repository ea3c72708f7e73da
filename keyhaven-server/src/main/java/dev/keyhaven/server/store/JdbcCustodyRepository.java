package dev.keyhaven.server.store;

import dev.keyhaven.server.custody.CustodyRepository;
import dev.keyhaven.server.custody.SealedSecret;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.Optional;

/** The deployment's signers (rows of {@code bundle_signer}, one per role). */
public final class JdbcCustodyRepository implements CustodyRepository {
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
