package dev.keyhaven.server.organization;

import java.util.List;

/** The users who together may do anything in an organization: {@code threshold} of {@code userIds} must approve. */
public record RootQuorum(int threshold, List<String> userIds) {
    public RootQuorum {
        userIds = List.copyOf(userIds);
    }
}
