package dev.keyhaven.server.http;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * Sends response bodies, and none to a HEAD request. Helidon 4.5 neither routes HEAD to GET routes nor leaves out the
 * body of a response to HEAD; a body there is read by the client as the start of the next response. Every GET route
 * is registered with {@link ServedRoutes#get} so HEAD answers like GET (same status and headers, Content-Length
 * included, no body), which is what HTTP clients, load balancers and uptime monitors expect (RFC 9110, section
 * 9.3.2); a 405 would fail their checks.
 */
final class ResponseBodies {
    private ResponseBodies() {}

    static void send(ServerRequest request, ServerResponse response, byte[] body) {
        if (Method.HEAD.equals(request.prologue().method())) {
            response.header(HeaderNames.CONTENT_LENGTH, Integer.toString(body.length));
            response.send();
        } else {
            response.send(body);
        }
    }
}
