package dev.keyhaven.server.proof;

import dev.keyhaven.server.tx.Tx;
import java.util.Optional;

/** Storage of the boot proofs of every server start (on every server sharing the database). */
public interface BootProofRepository {

    void insert(Tx tx, BootProof proof);

    Optional<BootProof> findByEphemeralKey(Tx tx, String ephemeralPublicKey);
}
