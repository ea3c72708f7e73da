package dev.keyhaven.server.http;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import io.helidon.common.buffers.DataReader;
import io.helidon.http.HeaderValues;
import io.helidon.http.RequestException;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads a request body, bounded, the only way handlers read one. Every way a body can be malformed (a chunk size
 * that is not hex or too large, a chunk without its line end, a body that stops before its end) is a 4xx whose
 * message says which without quoting the body, and the response closes the connection: bytes left unread cannot be
 * told apart from the next request. The body's deadline ends when it has all been read.
 */
final class RequestBody {
    private RequestBody() {}

    /**
     * @throws ApiException 413 past {@code maxBytes}, 400 for a malformed body
     * @throws ConnectionAbandoned when no answer can be written: the body's deadline passed (the 408 is sent), or
     *         the client's connection failed
     */
    static byte[] read(ServerRequest request, ServerResponse response, int maxBytes) {
        Optional<GuardedConnection> connection = GuardedConnection.current();
        OptionalLong declared = request.headers().contentLength();
        if (declared.isPresent() && declared.getAsLong() > maxBytes) {
            throw unreadable(response, tooLarge(maxBytes));
        }
        byte[] body;
        try {
            // Not closed: closing the stream would read (and wait for) the rest of a body refused part-way. With a
            // Content-Length the entity ends there, so asking for exactly that many bytes reads the same body without
            // the 16 KiB buffer an open-ended read starts with.
            int wanted = declared.isPresent() ? (int) declared.getAsLong() : maxBytes + 1;
            body = request.content().inputStream().readNBytes(wanted);
        } catch (IOException | RuntimeException e) {
            if (connection.map(GuardedConnection::closedByDeadline).orElse(false)) {
                throw ConnectionAbandoned.deadlinePassed();
            }
            throw unreadable(response, refusal(e, maxBytes));
        }
        if (body.length > maxBytes) {
            throw unreadable(response, tooLarge(maxBytes));
        }
        connection.ifPresent(GuardedConnection::bodyReceived);
        return body;
    }

    private static RuntimeException refusal(Exception e, int maxBytes) {
        if (e instanceof RequestException refused && refused.status().code() == 413) {
            return tooLarge(maxBytes);
        }
        if (e instanceof DataReader.InsufficientDataAvailableException) {
            return ApiException.badRequest("bad request body: the connection ended before the body did");
        }
        if (e instanceof CloseConnectionException || e instanceof UncheckedIOException || e instanceof IOException) {
            return ConnectionAbandoned.clientGone();
        }
        return ApiException.badRequest("bad request body: malformed chunked transfer coding");
    }

    /** The answer to a body that was not read to its end closes the connection. */
    private static RuntimeException unreadable(ServerResponse response, RuntimeException error) {
        response.header(HeaderValues.CONNECTION_CLOSE);
        return error;
    }

    private static ApiException tooLarge(int maxBytes) {
        return new ApiException(ErrorCode.PAYLOAD_TOO_LARGE, "request body is larger than " + maxBytes + " bytes");
    }
}
