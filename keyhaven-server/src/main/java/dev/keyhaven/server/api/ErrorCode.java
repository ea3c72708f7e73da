package dev.keyhaven.server.api;

/**
 * Every error Keyhaven reports, with its gRPC code, HTTP status and the {@code turnkeyErrorCode} the official
 * clients switch on.
 */
public enum ErrorCode {
    /** Malformed JSON, a missing or mistyped field, an unknown enum value, a violated rule of the operation. */
    BAD_REQUEST(GrpcCode.INVALID_ARGUMENT, "REQUEST_INVALID"),
    MALFORMED_ORGANIZATION_ID(GrpcCode.INVALID_ARGUMENT, "INVALID_ORGANIZATION_ID"),
    /** {@code timestampMs} outside the liveness window. */
    INVALID_TIME(GrpcCode.INVALID_ARGUMENT, "INVALID_TIME"),
    /** A caller acting on an organization it may only read. */
    INVALID_ACTIVITY_CALLER(GrpcCode.INVALID_ARGUMENT, "INVALID_ACTIVITY_CALLER"),
    PAYLOAD_TOO_LARGE(GrpcCode.RESOURCE_EXHAUSTED, 413, "REQUEST_INVALID"),
    UNKNOWN_OPERATION(GrpcCode.NOT_FOUND, "UNSPECIFIED"),
    METHOD_NOT_ALLOWED(GrpcCode.UNIMPLEMENTED, 405, "UNSPECIFIED"),

    SIGNATURE_MISSING(GrpcCode.UNAUTHENTICATED, "SIGNATURE_MISSING"),
    MALFORMED_STAMP(GrpcCode.UNAUTHENTICATED, "UNAUTHENTICATED"),
    SIGNATURE_INVALID(GrpcCode.UNAUTHENTICATED, "SIGNATURE_INVALID"),
    PUBLIC_KEY_NOT_FOUND(GrpcCode.UNAUTHENTICATED, "PUBLIC_KEY_NOT_FOUND"),
    CREDENTIAL_NOT_FOUND(GrpcCode.UNAUTHENTICATED, "CREDENTIAL_NOT_FOUND"),
    CREDENTIAL_CONFLICT(GrpcCode.UNAUTHENTICATED, "CREDENTIAL_CONFLICT"),
    API_KEY_EXPIRED(GrpcCode.UNAUTHENTICATED, "API_KEY_EXPIRED"),

    ORGANIZATION_NOT_FOUND(GrpcCode.NOT_FOUND, "ORGANIZATION_NOT_FOUND"),
    NOT_FOUND(GrpcCode.NOT_FOUND, "UNSPECIFIED"),
    /** An activity denied by the authorization rules (reported inside a FAILED activity). */
    REQUEST_NOT_AUTHORIZED(GrpcCode.PERMISSION_DENIED, "REQUEST_NOT_AUTHORIZED"),
    /** A write collided with a concurrent change of the same data; retrying with a new timestampMs may succeed. */
    CONFLICT(GrpcCode.ABORTED, "UNSPECIFIED"),
    /** A per-organization or per-user resource limit. */
    LIMIT_EXCEEDED(GrpcCode.RESOURCE_EXHAUSTED, "UNSPECIFIED"),
    /** Too many requests for one key (an OTP contact, a client address) in a window; see {@code Retry-After}. */
    RATE_LIMITED(GrpcCode.RESOURCE_EXHAUSTED, "UNSPECIFIED"),
    UNIMPLEMENTED(GrpcCode.UNIMPLEMENTED, "UNSPECIFIED"),
    UNAVAILABLE(GrpcCode.UNAVAILABLE, "UNSPECIFIED"),
    /**
     * The database cannot be reached, or gave no connection in time. The request may be sent again as it is after
     * {@code Retry-After}: an activity whose commit did land is found by its fingerprint and answered as recorded.
     * Never recorded as an activity's failure.
     */
    DATABASE_UNAVAILABLE(GrpcCode.UNAVAILABLE, "UNSPECIFIED"),
    INTERNAL(GrpcCode.INTERNAL, "INTERNAL"),
    /** No OAuth 2.0 credential with that id (or provider and client id) in the organization. */
    OAUTH2_CREDENTIAL_NOT_FOUND(GrpcCode.NOT_FOUND, "OAUTH2_CREDENTIAL_NOT_FOUND"),
    /** A provider other than {@code OAUTH2_PROVIDER_X} and {@code OAUTH2_PROVIDER_DISCORD}. */
    INVALID_OAUTH2_PROVIDER(GrpcCode.INVALID_ARGUMENT, "INVALID_OAUTH2_PROVIDER"),
    /** The OAuth 2.0 provider refused the exchange (an invalid, used or expired code; a wrong redirect URI). */
    OAUTH2_PROVIDER_REJECTED(GrpcCode.INVALID_ARGUMENT, "RPC_CALL_ERROR"),
    /** The OAuth 2.0 provider failed, timed out, could not be reached or answered something unusable. */
    OAUTH2_PROVIDER_UNAVAILABLE(GrpcCode.UNAVAILABLE, 502, "RPC_CALL_ERROR"),
    /** An OIDC token that does not verify: untrusted issuer, bad signature, wrong audience or nonce, expired, used. */
    INVALID_OIDC_TOKEN(GrpcCode.INVALID_ARGUMENT, "INVALID_OIDC_TOKEN"),
    /** An OAuth provider (issuer, audience, subject) already registered to a user of the organization family. */
    OAUTH_PROVIDER_ALREADY_EXISTS(GrpcCode.INVALID_ARGUMENT, "OAUTH_PROVIDER_ALREADY_EXISTS"),
    /**
     * The organization has turned off the feature the activity needs ({@code remove_organization_feature}), or the
     * feature cannot be set on this server; refused before any policy runs.
     */
    FEATURE_DISABLED(GrpcCode.FAILED_PRECONDITION, "UNSPECIFIED"),
    /** {@code delete_sub_organization} of a sub-organization holding keys never exported, without deleteWithoutExport. */
    KEYS_NOT_EXPORTED(GrpcCode.FAILED_PRECONDITION, "UNSPECIFIED");

    private final GrpcCode grpc;
    private final int httpStatus;
    private final String turnkeyErrorCode;

    ErrorCode(GrpcCode grpc, String turnkeyErrorCode) {
        this(grpc, grpc.httpStatus(), turnkeyErrorCode);
    }

    ErrorCode(GrpcCode grpc, int httpStatus, String turnkeyErrorCode) {
        this.grpc = grpc;
        this.httpStatus = httpStatus;
        this.turnkeyErrorCode = turnkeyErrorCode;
    }

    public GrpcCode grpc() {
        return grpc;
    }

    public int httpStatus() {
        return httpStatus;
    }

    public String turnkeyErrorCode() {
        return turnkeyErrorCode;
    }
}
