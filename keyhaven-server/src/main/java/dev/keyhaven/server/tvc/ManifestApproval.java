package dev.keyhaven.server.tvc;

import java.time.Instant;

/** An operator's approval of a manifest: its signature (hex, as submitted) over the manifest hash. */
public record ManifestApproval(
        String id, String manifestId, TvcOperator operator, String signature, Instant createdAt) {}
