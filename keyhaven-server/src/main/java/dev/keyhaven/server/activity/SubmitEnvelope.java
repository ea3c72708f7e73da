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
                .orElseThrow(() -> notAccepted(spec, type, typeName));
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

    /** This envelope addressed to {@code organization} instead. */
    public SubmitEnvelope in(String organization) {
        return new SubmitEnvelope(version, timestamp, organization, parameters, generateAppProofs);
    }

    /**
     * A type this operation does not run: another operation's, or a version of this one that no published client
     * sends and Keyhaven does not implement. Either way the message lists the versions it accepts.
     */
    private static ApiException notAccepted(ActivitySpec spec, ActivityType type, String typeName) {
        String accepted = spec.versions().stream().map(v -> v.type().wireName()).collect(Collectors.joining(", "));
        boolean sameKind = spec.versions().getFirst().type().kind().equals(type.kind());
        return ApiException.badField(
                "type",
                sameKind
                        ? "'" + typeName + "' is a version of " + spec.operation()
                                + " that Keyhaven does not accept (accepted: " + accepted + ")"
                        : "'" + typeName + "' does not match operation " + spec.operation() + " (accepted: " + accepted
                                + ")");
    }

    private static String abbreviate(String value) {
        return value.length() <= 80 ? value : value.substring(0, 80) + "…";
    }
}
