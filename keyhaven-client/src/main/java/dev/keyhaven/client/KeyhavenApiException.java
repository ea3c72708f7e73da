package dev.keyhaven.client;

/** An error response of the API: HTTP status, gRPC code, message and {@code turnkeyErrorCode}. */
public final class KeyhavenApiException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int httpStatus;
    private final int code;
    private final String turnkeyErrorCode;

    public KeyhavenApiException(int httpStatus, int code, String message, String turnkeyErrorCode) {
        super("HTTP " + httpStatus + " (code " + code + ", " + turnkeyErrorCode + "): " + message);
        this.httpStatus = httpStatus;
        this.code = code;
        this.turnkeyErrorCode = turnkeyErrorCode;
    }

    public int httpStatus() {
        return httpStatus;
    }

    /** The gRPC status code of the error body. */
    public int code() {
        return code;
    }

    public String turnkeyErrorCode() {
        return turnkeyErrorCode;
    }
}
