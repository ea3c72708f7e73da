package dev.keyhaven.server.store;

import java.util.List;
import java.util.function.Supplier;

/**
 * A signature's record (the activity's row and its vote's) that a PostgreSQL grouped write inserts when its batch is
 * about to commit, with every other record of the batch in one statement, once its organization's row is locked and
 * found still at {@code stateVersion}; else the write fails with {@code moved}'s exception.
 */
record DeferredRecord(
        String organizationId,
        long stateVersion,
        Supplier<? extends RuntimeException> moved,
        List<Object> activityRow,
        List<Object> voteRow) {}
