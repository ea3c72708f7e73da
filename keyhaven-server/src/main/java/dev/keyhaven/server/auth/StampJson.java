package dev.keyhaven.server.auth;

import dev.keyhaven.server.api.ApiException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.function.Function;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/** Reading the JSON object a stamp header carries, with each verifier's own "malformed stamp" error. */
final class StampJson {
    private StampJson() {}

    /**
     * The header's JSON object: base64url (standard base64 characters tolerated), or, when {@code plainAllowed},
     * the JSON itself.
     */
    static JsonNode decode(
            ObjectMapper json, String headerValue, boolean plainAllowed, Function<String, ApiException> malformed) {
        String value = headerValue.strip();
        byte[] decoded;
        if (plainAllowed && value.startsWith("{")) {
            decoded = value.getBytes(StandardCharsets.UTF_8);
        } else {
            try {
                decoded = Base64.getUrlDecoder().decode(value.replace('+', '-').replace('/', '_'));
            } catch (IllegalArgumentException e) {
                throw malformed.apply("not base64url");
            }
        }
        JsonNode node;
        try {
            node = json.readTree(decoded);
        } catch (JacksonException e) {
            throw malformed.apply("not JSON");
        }
        if (node == null || !node.isObject()) {
            throw malformed.apply("not a JSON object");
        }
        return node;
    }

    /** A member that must be a non-empty string. */
    static String member(JsonNode stamp, String name, Function<String, ApiException> malformed) {
        JsonNode value = stamp.get(name);
        if (value == null || !value.isString() || value.stringValue().isEmpty()) {
            throw malformed.apply("missing " + name);
        }
        return value.stringValue();
    }
}
