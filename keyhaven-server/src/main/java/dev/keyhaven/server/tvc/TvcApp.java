package dev.keyhaven.server.tvc;

import java.time.Instant;

/** An app: its quorum key and the operator sets that approve its manifests and hold shares of that key. */
public record TvcApp(
        String id,
        String organizationId,
        String name,
        String quorumPublicKey,
        OperatorSet manifestSet,
        OperatorSet shareSet,
        boolean enableEgress,
        boolean enableDebugModeDeployments,
        Instant createdAt,
        Instant updatedAt) {}
