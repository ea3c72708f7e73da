package dev.keyhaven.server.testing;

import dev.keyhaven.client.KeyhavenClient;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Small JSON helpers for tests that look at raw responses. */
public final class Json {
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private Json() {}

    public static JsonNode parse(byte[] body) {
        return MAPPER.readTree(body);
    }

    public static JsonNode parse(KeyhavenClient.RawResponse response) {
        return parse(response.body());
    }

    public static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] bytes(Object value) {
        return MAPPER.writeValueAsBytes(value);
    }
}
