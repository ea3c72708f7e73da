package dev.keyhaven.server.store;

import dev.keyhaven.server.custody.SealedSecret;
import dev.keyhaven.server.custody.ServerIdentity;
import dev.keyhaven.server.proof.BootProof;
import dev.keyhaven.server.proof.BootProofRepository;
import dev.keyhaven.server.tx.Tx;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/** The server's long-term identity (sealed) and the boot proof of each server start. */
public final class JdbcProofRepository implements ServerIdentity.Repository, BootProofRepository {
    private static final String IDENTITY_ID = "identity";
    private static final String BOOT_COLUMNS =
            "ephemeral_public_key, statement, identity_public_key, signature, " + "created_at";

    @Override
    public Optional<ServerIdentity.Stored> find(Tx tx) {
        return Sql.one(
                tx,
                "SELECT public_key, key_sealed FROM server_identity WHERE id = ?",
                rs -> new ServerIdentity.Stored(rs.getString(1), new SealedSecret(rs.getString(2))),
                IDENTITY_ID);
    }

    @Override
    public void insert(Tx tx, ServerIdentity.Stored identity, Instant createdAt) {
        Sql.update(
                tx,
                "INSERT INTO server_identity (id, public_key, key_sealed, created_at) VALUES (?, ?, ?, ?)",
                IDENTITY_ID,
                identity.publicKeyHex(),
                identity.sealed().base64(),
                createdAt);
    }

    @Override
    public void insert(Tx tx, BootProof proof) {
        Sql.update(
                tx,
                "INSERT INTO boot_proofs (" + BOOT_COLUMNS + ") VALUES (" + Sql.placeholders(5) + ")",
                proof.ephemeralPublicKey(),
                proof.statement(),
                proof.identityPublicKey(),
                proof.signature(),
                proof.createdAt());
    }

    @Override
    public Optional<BootProof> findByEphemeralKey(Tx tx, String ephemeralPublicKey) {
        return Sql.one(
                tx,
                "SELECT " + BOOT_COLUMNS + " FROM boot_proofs WHERE ephemeral_public_key = ?",
                JdbcProofRepository::bootProof,
                ephemeralPublicKey);
    }

    private static BootProof bootProof(ResultSet rs) throws SQLException {
        return new BootProof(
                rs.getString("ephemeral_public_key"),
                rs.getString("statement"),
                rs.getString("identity_public_key"),
                rs.getString("signature"),
                Sql.instant(rs, "created_at"));
    }
}
