package dev.keyhaven.server.keyimport;

import dev.keyhaven.server.tx.Tx;
import java.util.Optional;

/** Storage of import targets. */
public interface ImportTargetRepository {

    void insert(Tx tx, ImportTarget target);

    /** The user's newest target of this kind, expired or not. */
    Optional<ImportTarget> latest(Tx tx, String organizationId, String userId, ImportKind kind);

    /** Deletes every target of the user of this kind (a new init replaces them; an import uses its target up). */
    void deleteAll(Tx tx, String organizationId, String userId, ImportKind kind);
}
