package dev.keyhaven.server.activity;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.api.WireEnum;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Collectors;

/**
 * The submit request envelope: {@code type}, {@code timestampMs}, {@code organizationId}, {@code parameters} and
 * the optional {@code generateAppProofs}.
 */
public record SubmitEnvelope(
        ActivityVersion version,
        Instant timestamp,
        String organizationId,
        Params parameters,
        boolean generateAppProofs) {

    /** How old a request may be. */
    public static final Duration MAX_AGE = Duration.ofHours(1);
    /** How far in the future a request's clock may be. */
    public static final Duration MAX_SKEW_AHEAD = Duration.ofMinutes(5);

    /** Reads and checks the envelope of a request for {@code handler}'s operation, at server time {@code now}. */
    public static SubmitEnvelope read(Params body, ActivityHandler<?> handler, Instant now) {
        String typeName = body.requiredString("type");
        ActivityType type = WireEnum.fromWire(ActivityType.class, typeName)
                .orElseThrow(() ->
                        ApiException.badField("type", "has unknown activity type '" + abbreviate(typeName) + "'"));
        ActivitySpec spec = handler.spec();
        ActivityVersion version = spec.versions().stream()
                .filter(v -> v.type() == type)
                .findFirst()
                .orElseThrow(() -> ApiException.badField(
                        "type",
                        "'" + typeName + "' does not match operation "
                                + spec.operation() + " (expected "
                                + spec.versions().stream()
                                        .map(v -> v.type().wireName())
                                        .collect(Collectors.joining(" or "))
                                + ")"));
        long millis = body.optionalUint64("timestampMs")
                .orElseThrow(() -> ApiException.badField("timestampMs", "is required"));
        Instant timestamp = Instant.ofEpochMilli(millis);
        if (timestamp.isBefore(now.minus(MAX_AGE)) || timestamp.isAfter(now.plus(MAX_SKEW_AHEAD))) {
            throw new ApiException(
                    ErrorCode.INVALID_TIME,
                    "invalid timestampMs: the request is older than "
                            + MAX_AGE.toMinutes() + " minutes or more than " + MAX_SKEW_AHEAD.toMinutes()
                            + " minutes in the future (server time " + now.toEpochMilli() + ")",
                    "timestampMs");
        }
        String organizationId = body.requiredString("organizationId");
        Params parameters = body.requiredObject("parameters");
        boolean proofs = body.optionalBoolean("generateAppProofs", false);
        if (proofs && !spec.acceptsAppProofs()) {
            // false is accepted: @turnkey/core sends it with every activity.
            throw ApiException.badField("generateAppProofs", "is not accepted by " + spec.operation());
        }
        return new SubmitEnvelope(version, timestamp, organizationId, parameters, proofs);
    }

    private static String abbreviate(String value) {
        return value.length() <= 80 ? value : value.substring(0, 80) + "…";
    }
}
