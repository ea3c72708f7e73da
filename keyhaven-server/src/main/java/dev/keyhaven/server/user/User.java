package dev.keyhaven.server.user;

import java.time.Instant;
import java.util.Optional;

/** A user of an organization. */
public record User(
        String id,
        String organizationId,
        String name,
        Optional<String> email,
        Optional<String> phoneNumber,
        Instant createdAt,
        Instant updatedAt) {}
