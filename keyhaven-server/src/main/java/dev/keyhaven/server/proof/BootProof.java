package dev.keyhaven.server.proof;

import java.time.Instant;

/**
 * The boot proof of one server start: {@code statement} is the JSON text that was signed (see {@link ProofService}),
 * {@code signature} hex of the raw r ‖ s by the long-term key {@code identityPublicKey} over its SHA-256.
 */
public record BootProof(
        String ephemeralPublicKey, String statement, String identityPublicKey, String signature, Instant createdAt) {}
