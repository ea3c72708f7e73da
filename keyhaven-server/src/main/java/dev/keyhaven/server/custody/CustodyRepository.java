package dev.keyhaven.server.custody;

import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.Optional;

/** Storage of the value that tells whether a KEK is the one the database's secrets were sealed with. */
public interface CustodyRepository {

    Optional<SealedSecret> masterKeyCheck(Tx tx);

    /** Records the check value; a concurrent first start by another process makes this a constraint violation. */
    void insertMasterKeyCheck(Tx tx, SealedSecret check, Instant createdAt);
}
