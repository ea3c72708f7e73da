package dev.keyhaven.server.activity;

import dev.keyhaven.server.state.StateReads;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** Supplies the wire form of voting users, which each vote keeps as a snapshot. */
public interface VoterDirectory {
    /** The user's wire form, which callers treat as immutable (it may be shared between requests). */
    JsonNode userSnapshot(StateReads organization, String userId);

    /** The ids of every user of the organization, oldest first: everyone who could vote. */
    List<String> userIds(StateReads organization);
}
