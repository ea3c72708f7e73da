package dev.keyhaven.server.http;

import dev.keyhaven.server.api.ApiException;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Error bodies in the real service's (grpc-gateway) shape: numeric {@code code}, {@code message}, {@code details}
 * with the Turnkey error detail (and a field violation when a field is to blame), and a top-level
 * {@code turnkeyErrorCode}.
 */
final class ErrorBodies {
    private final ObjectMapper json;

    ErrorBodies(ObjectMapper json) {
        this.json = json;
    }

    byte[] render(ApiException error) {
        ObjectNode body = json.createObjectNode();
        body.put("code", error.code().grpc().number());
        body.put("message", error.getMessage());
        ArrayNode details = body.putArray("details");
        ObjectNode detail = details.addObject();
        detail.put("@type", "type.googleapis.com/errors.v1.TurnkeyErrorDetail");
        detail.put("turnkeyErrorCode", error.code().turnkeyErrorCode());
        error.field().ifPresent(field -> {
            ObjectNode badRequest = details.addObject();
            badRequest.put("@type", "type.googleapis.com/google.rpc.BadRequest");
            ObjectNode violation = badRequest.putArray("fieldViolations").addObject();
            violation.put("field", field);
            violation.put("description", error.getMessage());
        });
        body.put("turnkeyErrorCode", error.code().turnkeyErrorCode());
        return json.writeValueAsBytes(body);
    }
}
