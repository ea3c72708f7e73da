package dev.keyhaven.server.tvc;

import java.time.Instant;

/**
 * A deployment of an app and its manifest: {@code manifest} is the JSON text (UTF-8) operators approve,
 * {@code manifestHash} hex of its SHA-256, {@code pivotContainer} the container spec as JSON text.
 */
public record TvcDeployment(
        String id,
        String organizationId,
        String appId,
        String manifestId,
        String manifest,
        String manifestHash,
        String qosVersion,
        String pivotContainer,
        boolean debugMode,
        Instant createdAt,
        Instant updatedAt) {}
