package dev.keyhaven.server.policy;

import java.time.Instant;
import java.util.Optional;

/**
 * A stored policy. Expressions are kept as written; an empty {@code condition} or {@code consensus} means true, an
 * absent {@code time} means always active (compiled by {@link PolicyCompiler}).
 */
public record Policy(
        String id,
        String organizationId,
        String name,
        PolicyEffect effect,
        String condition,
        String consensus,
        Optional<String> time,
        String notes,
        Instant createdAt,
        Instant updatedAt) {

    /** This policy with {@code draft}'s fields, changed at {@code at}. */
    Policy with(PolicyDraft draft, Instant at) {
        return new Policy(
                id,
                organizationId,
                draft.name(),
                draft.effect(),
                draft.condition(),
                draft.consensus(),
                draft.time(),
                draft.notes(),
                createdAt,
                at);
    }
}
