package dev.keyhaven.server.tvc;

import java.time.Instant;

/** An operator: a name and the P-256 public key (hex, as registered) its approvals are checked with. */
public record TvcOperator(
        String id, String organizationId, String name, String publicKey, Instant createdAt, Instant updatedAt) {}
