package dev.keyhaven.server.api;

/**
 * gRPC status codes as the real service reports them in error bodies ({@code code}), with the HTTP status the
 * grpc-gateway convention maps each to.
 */
public enum GrpcCode {
    CANCELLED(1, 499),
    UNKNOWN(2, 500),
    INVALID_ARGUMENT(3, 400),
    DEADLINE_EXCEEDED(4, 504),
    NOT_FOUND(5, 404),
    ALREADY_EXISTS(6, 409),
    PERMISSION_DENIED(7, 403),
    RESOURCE_EXHAUSTED(8, 429),
    FAILED_PRECONDITION(9, 400),
    ABORTED(10, 409),
    OUT_OF_RANGE(11, 400),
    UNIMPLEMENTED(12, 501),
    INTERNAL(13, 500),
    UNAVAILABLE(14, 503),
    UNAUTHENTICATED(16, 401);

    private final int number;
    private final int httpStatus;

    GrpcCode(int number, int httpStatus) {
        this.number = number;
        this.httpStatus = httpStatus;
    }

    public int number() {
        return number;
    }

    public int httpStatus() {
        return httpStatus;
    }

    public static GrpcCode ofNumber(int number) {
        for (GrpcCode code : values()) {
            if (code.number == number) {
                return code;
            }
        }
        return UNKNOWN;
    }
}
