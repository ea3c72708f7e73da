package dev.keyhaven.server.activity;

import java.time.Instant;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * One user's approval or rejection of an activity, with the stamp that carried it: the exact signed body
 * ({@code message}), the public key, the signature and the scheme. {@code user} is the voter's user record as it was
 * when the vote was cast, so the audit trail keeps meaning after the user changes or is deleted. {@code evaluation}
 * is the policy evaluation the vote caused (absent for votes recorded before evaluations were kept, and for a
 * submission whose execution failed).
 */
public record Vote(
        String id,
        String activityId,
        String userId,
        JsonNode user,
        VoteSelection selection,
        String message,
        String publicKey,
        String signature,
        String scheme,
        Instant createdAt,
        Optional<PolicyEvaluation> evaluation) {

    public Vote withEvaluation(PolicyEvaluation newEvaluation) {
        return new Vote(
                id,
                activityId,
                userId,
                user,
                selection,
                message,
                publicKey,
                signature,
                scheme,
                createdAt,
                Optional.of(newEvaluation));
    }
}
