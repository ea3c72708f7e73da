package dev.keyhaven.server.activity;

import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;

/**
 * What a handler needs to execute: the activity's transaction, its organization and id, the user who submitted it,
 * the activity's time (every row it writes carries this instant) and the id source.
 */
public record ActivityContext(Tx tx, String organizationId, String activityId, Caller submitter, Instant now, Ids ids) {
}
