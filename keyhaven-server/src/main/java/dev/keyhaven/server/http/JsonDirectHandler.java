package dev.keyhaven.server.http;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.http.Headers;
import io.helidon.http.Method;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import java.util.List;

/**
 * Helidon's answers to requests it refuses before any route sees them (a malformed request line or header, framing
 * that mixes Content-Length and Transfer-Encoding, an unknown transfer coding, a head too large), in the API's JSON
 * error shape instead of Helidon's empty bodies. Helidon's message is not used: it is either generic or not meant for
 * clients. Three of Helidon's statuses become 400: 501 for a transfer coding other than chunked, 505 for a version
 * other than HTTP/1.1, and 500 for a head Helidon failed to parse, since they describe the request, not a fault of
 * the server, and a 5xx tells monitoring and clients the opposite (RFC 9112 suggests 501 for an unknown coding).
 */
final class JsonDirectHandler implements DirectHandler {
    private static final String MALFORMED = "malformed HTTP request";
    private static final String UNSUPPORTED_CODING =
            "unsupported transfer coding: a request body is sent as it is " + "or chunked";

    private final ErrorBodies errors;

    JsonDirectHandler(ErrorBodies errors) {
        this.errors = errors;
    }

    @Override
    public TransportResponse handle(
            TransportRequest request,
            EventType eventType,
            Status defaultStatus,
            ServerResponseHeaders responseHeaders,
            String message) {
        Refusal refusal = refusal(request, defaultStatus);
        byte[] body = errors.render(new ApiException(refusal.code(), refusal.message()));
        TransportResponse.Builder response = TransportResponse.builder()
                .status(refusal.status())
                .headers(responseHeaders)
                .header(HeaderNames.CONTENT_TYPE, ApiEndpoint.JSON)
                .keepAlive(false);
        // A HEAD request's response has no body (it would be read as the start of the next response).
        return Method.HEAD.text().equals(request.method())
                ? response.build()
                : response.entity(body).build();
    }

    private static Refusal refusal(TransportRequest request, Status status) {
        return switch (status.code()) {
            case 413 ->
                new Refusal(
                        Status.REQUEST_ENTITY_TOO_LARGE_413,
                        ErrorCode.PAYLOAD_TOO_LARGE,
                        "request is larger than allowed");
            case 414 -> new Refusal(Status.REQUEST_URI_TOO_LONG_414, ErrorCode.BAD_REQUEST, "request line is too long");
            case 501 -> new Refusal(Status.BAD_REQUEST_400, ErrorCode.BAD_REQUEST, UNSUPPORTED_CODING);
            case 505 ->
                new Refusal(
                        Status.BAD_REQUEST_400,
                        ErrorCode.BAD_REQUEST,
                        "unsupported HTTP version: HTTP/1.1 is required");
            case 503 ->
                new Refusal(Status.SERVICE_UNAVAILABLE_503, ErrorCode.UNAVAILABLE, "too many requests at once; retry");
            // Without a request, the failure happened while Helidon parsed the head (a method with a character a
            // token may not have, for one): the request is malformed. With one, a route failed: a fault of ours.
            case 500 ->
                request.method().isEmpty()
                        ? new Refusal(Status.BAD_REQUEST_400, ErrorCode.BAD_REQUEST, MALFORMED)
                        : new Refusal(Status.INTERNAL_SERVER_ERROR_500, ErrorCode.INTERNAL, "internal server error");
            default ->
                new Refusal(
                        status.code() >= 400 && status.code() < 500 ? status : Status.BAD_REQUEST_400,
                        ErrorCode.BAD_REQUEST,
                        malformed(request.headers()));
        };
    }

    /** What is wrong with a request Helidon refused, as far as its headers tell (Helidon's own message is not). */
    private static String malformed(Headers headers) {
        boolean chunked = headers.contains(HeaderNames.TRANSFER_ENCODING);
        if (chunked && headers.contains(HeaderNames.CONTENT_LENGTH)) {
            return MALFORMED + ": Content-Length and Transfer-Encoding must not be combined";
        }
        if (chunked) {
            return UNSUPPORTED_CODING;
        }
        if (headers.contains(HeaderNames.CONTENT_ENCODING)) {
            return MALFORMED + ": Content-Encoding is not supported, bodies are sent as they are";
        }
        if (headers.all(HeaderNames.CONTENT_LENGTH, List::of).size() > 1) {
            return MALFORMED + ": more than one Content-Length";
        }
        return MALFORMED;
    }

    private record Refusal(Status status, ErrorCode code, String message) {}
}
