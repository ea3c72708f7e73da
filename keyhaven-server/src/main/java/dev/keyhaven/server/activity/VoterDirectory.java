package dev.keyhaven.server.activity;

import dev.keyhaven.server.tx.Tx;
import tools.jackson.databind.JsonNode;

/** Supplies the wire form of a voting user, which each vote keeps as a snapshot. */
@FunctionalInterface
public interface VoterDirectory {
    JsonNode userSnapshot(Tx tx, String organizationId, String userId);
}
