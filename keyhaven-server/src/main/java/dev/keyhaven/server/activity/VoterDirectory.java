package dev.keyhaven.server.activity;

import dev.keyhaven.server.state.StateReads;
import tools.jackson.databind.JsonNode;

/** Supplies the wire form of a voting user, which each vote keeps as a snapshot. */
@FunctionalInterface
public interface VoterDirectory {
    /** The user's wire form, which callers treat as immutable (it may be shared between requests). */
    JsonNode userSnapshot(StateReads organization, String userId);
}
