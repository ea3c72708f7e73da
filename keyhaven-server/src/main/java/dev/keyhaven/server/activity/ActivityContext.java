package dev.keyhaven.server.activity;

import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.state.StateReads;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.Optional;

/**
 * What a handler needs to execute: its organization's state ({@code reads}), the activity's organization and id, the
 * user who submitted it, the activity's time (every row it writes carries this instant) and the id source. A handler
 * whose {@link ActivityEffect} is {@code NONE} runs outside any transaction and must only read through {@code reads}.
 * A handler that creates addresses reports each one to {@code addresses} (for app proofs).
 */
public record ActivityContext(
        Optional<Tx> transaction,
        StateReads reads,
        String organizationId,
        String activityId,
        Caller submitter,
        Instant now,
        Ids ids,
        AddressLog addresses) {

    /** A context whose created addresses are not kept. */
    public ActivityContext(
            Optional<Tx> transaction,
            StateReads reads,
            String organizationId,
            String activityId,
            Caller submitter,
            Instant now,
            Ids ids) {
        this(transaction, reads, organizationId, activityId, submitter, now, ids, AddressLog.IGNORED);
    }

    /** The activity's write transaction. */
    public Tx tx() {
        return transaction.orElseThrow(() -> new IllegalStateException(
                "an activity that changes nothing runs outside a transaction; read through reads()"));
    }
}
