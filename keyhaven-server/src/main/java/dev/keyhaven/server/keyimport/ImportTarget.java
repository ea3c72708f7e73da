package dev.keyhaven.server.keyimport;

import dev.keyhaven.server.custody.SealedSecret;
import java.time.Instant;

/** A stored import target: the key a user's next import of {@code kind} must be encrypted to. */
public record ImportTarget(
        String id,
        String organizationId,
        String userId,
        ImportKind kind,
        String publicKey,
        SealedSecret sealedKey,
        Instant createdAt,
        Instant expiresAt) {}
