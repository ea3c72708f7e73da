package dev.keyhaven.server.activity;

import java.util.List;
import java.util.Optional;

/**
 * What the authorizer decides on: the activity's organization and type, what it acts on, the users who approved
 * it so far (the submitter first), and the user whose own credentials it manages, if any.
 */
public record AuthorizationRequest(String organizationId, ActivityType type, ActivityResource resource,
        ActivityAction action, List<String> approverUserIds, Optional<String> credentialOwner) {

    public AuthorizationRequest {
        approverUserIds = List.copyOf(approverUserIds);
    }
}
