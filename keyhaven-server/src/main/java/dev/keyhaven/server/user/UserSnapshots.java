package dev.keyhaven.server.user;

import dev.keyhaven.server.activity.VoterDirectory;
import dev.keyhaven.server.tx.Tx;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/** The wire form of a voter, kept in each vote. */
public final class UserSnapshots implements VoterDirectory {
    private final UserQueries queries;
    private final ObjectMapper json;

    public UserSnapshots(UserQueries queries, ObjectMapper json) {
        this.queries = queries;
        this.json = json;
    }

    @Override
    public JsonNode userSnapshot(Tx tx, String organizationId, String userId) {
        return json.valueToTree(queries.user(tx, organizationId, userId).orElseThrow(
                () -> new IllegalStateException("a verified caller's user must exist")));
    }
}
