package dev.keyhaven.server.activity;

import java.time.Instant;
import tools.jackson.databind.JsonNode;

/**
 * One user's approval or rejection of an activity, with the stamp that carried it: the exact signed body
 * ({@code message}), the public key, the signature and the scheme. {@code user} is the voter's user record as it was
 * when the vote was cast, so the audit trail keeps meaning after the user changes or is deleted.
 */
public record Vote(String id, String activityId, String userId, JsonNode user, VoteSelection selection,
        String message, String publicKey, String signature, String scheme, Instant createdAt) {
}
