package dev.keyhaven.server.app;

import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code request}: sends one stamped request with a P-256 API key kept in key files, and prints the response. A
 * submit body without {@code timestampMs} gets the current time, so activities can be typed by hand.
 */
@Command(
        name = "request",
        mixinStandardHelpOptions = true,
        description = "Send one stamped request to a Keyhaven (or Turnkey) API and print the response.")
final class RequestCommand implements Callable<Integer> {

    @Option(
            names = "--url",
            defaultValue = "${env:KEYHAVEN_URL:-http://127.0.0.1:8080}",
            description = "Base URL of the API (default: ${DEFAULT-VALUE}; env: KEYHAVEN_URL).")
    String url;

    @Option(
            names = "--key",
            required = true,
            defaultValue = "${env:KEYHAVEN_KEY}",
            description = "Key-file prefix: PREFIX.public and PREFIX.private hold the P-256 key pair in hex "
                    + "(env: KEYHAVEN_KEY).")
    Path key;

    @Option(
            names = "--path",
            required = true,
            defaultValue = "${env:KEYHAVEN_REQUEST_PATH}",
            description = "Path of the operation, e.g. /public/v1/query/whoami or /public/v1/submit/create_users "
                    + "(env: KEYHAVEN_REQUEST_PATH).")
    String path;

    @Option(
            names = "--body",
            required = true,
            defaultValue = "${env:KEYHAVEN_REQUEST_BODY}",
            description = "The JSON body (env: KEYHAVEN_REQUEST_BODY).")
    String body;

    @Override
    public Integer call() {
        KeyFiles files = KeyFiles.withPrefix(key);
        try (ApiKeyStamper stamper = ApiKeyStamper.fromPrivateKey(ApiKeyStamper.Curve.P256, files.readPrivateKey())) {
            KeyhavenClient client = new KeyhavenClient(url, stamper, "");
            JsonNode parsed = client.json().readTree(body);
            if (parsed instanceof ObjectNode object && object.has("type") && !object.has("timestampMs")) {
                object.put("timestampMs", Long.toString(System.currentTimeMillis()));
            }
            KeyhavenClient.RawResponse response =
                    client.post(path, client.json().writeValueAsBytes(parsed), Map.of(), true);
            System.out.println(new String(response.body(), StandardCharsets.UTF_8));
            return response.status() / 100 == 2 ? 0 : 1;
        }
    }
}
