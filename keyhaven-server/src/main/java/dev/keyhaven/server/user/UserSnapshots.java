package dev.keyhaven.server.user;

import dev.keyhaven.server.activity.VoterDirectory;
import dev.keyhaven.server.state.StateReads;
import java.util.List;
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
    public JsonNode userSnapshot(StateReads organization, String userId) {
        return organization.get(
                new UserLookup(userId),
                tx -> json.valueToTree(queries.user(tx, organization.organizationId(), userId)
                        .orElseThrow(() -> new IllegalStateException("a verified caller's user must exist"))));
    }

    @Override
    public List<String> userIds(StateReads organization) {
        return organization.get(new UserIdsLookup(), tx -> queries.userIds(tx, organization.organizationId()));
    }

    /** The lookup of the organization's user ids. */
    private record UserIdsLookup() {}

    /** The lookup of one user's wire form. */
    private record UserLookup(String userId) {}
}
