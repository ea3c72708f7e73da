package dev.keyhaven.server.api;

import java.util.Optional;

/**
 * The one exception type for errors a caller must see. Its message is shown to the caller verbatim, so it names
 * the field and the problem and never contains secrets. {@code field}, when present, is the JSON path of the
 * offending input (reported as a field violation).
 */
public final class ApiException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;
    private final String field;
    private long retryAfterSeconds;

    public ApiException(ErrorCode code, String message) {
        this(code, message, null);
    }

    public ApiException(ErrorCode code, String message, String field) {
        super(message, null, false, false);
        this.code = code;
        this.field = field;
    }

    public static ApiException badRequest(String message) {
        return new ApiException(ErrorCode.BAD_REQUEST, message);
    }

    public static ApiException badField(String field, String problem) {
        return new ApiException(ErrorCode.BAD_REQUEST, "bad request body: " + field + " " + problem, field);
    }

    /** A 429 whose response carries {@code Retry-After: seconds}. */
    public static ApiException rateLimited(String message, long seconds) {
        return retryLater(ErrorCode.RATE_LIMITED, message, seconds);
    }

    /** An error whose response carries {@code Retry-After: seconds} (a 429, a 503). */
    public static ApiException retryLater(ErrorCode code, String message, long seconds) {
        ApiException e = new ApiException(code, message + " (retry after " + seconds + " s)");
        e.retryAfterSeconds = seconds;
        return e;
    }

    /** The seconds a client should wait before retrying, for an error made by {@link #retryLater}. */
    public java.util.OptionalLong retryAfterSeconds() {
        return retryAfterSeconds > 0 ? java.util.OptionalLong.of(retryAfterSeconds) : java.util.OptionalLong.empty();
    }

    public static ApiException notFound(String message) {
        return new ApiException(ErrorCode.NOT_FOUND, message);
    }

    /**
     * Fails with a 404 naming every missing id when {@code missingIds} is not empty
     * ("no wallet found with id a, b").
     */
    public static void requireNoneMissing(String what, java.util.Collection<String> missingIds) {
        if (!missingIds.isEmpty()) {
            throw notFound("no " + what + " found with id " + String.join(", ", missingIds));
        }
    }

    /**
     * Deleting key material that was never exported loses it for good, so it needs {@code deleteWithoutExport}:
     * fails with a 400 naming every such id ("wallet has not been exported: a, b").
     */
    public static void requireExported(String what, java.util.Collection<String> notExportedIds) {
        if (!notExportedIds.isEmpty()) {
            throw badRequest(what + " has not been exported: " + String.join(", ", notExportedIds)
                    + " (export it first, or set deleteWithoutExport to delete it for good)");
        }
    }

    public ErrorCode code() {
        return code;
    }

    public Optional<String> field() {
        return Optional.ofNullable(field);
    }
}
