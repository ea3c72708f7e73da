package dev.keyhaven.server.user;

import java.time.Instant;

/** A named label on users or private keys. */
public record Tag(String id, String organizationId, String name, TagType type, Instant createdAt, Instant updatedAt) {}
