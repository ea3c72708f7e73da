package dev.keyhaven.server.organization;

import java.time.Instant;
import java.util.Optional;

/** An organization; a sub-organization names its parent. */
public record Organization(
        String id,
        String name,
        Optional<String> parentId,
        RootQuorum rootQuorum,
        Instant createdAt,
        Instant updatedAt) {

    public boolean isSubOrganization() {
        return parentId.isPresent();
    }
}
