package dev.keyhaven.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.KeyhavenClient.RawResponse;
import dev.keyhaven.server.testing.Json;
import dev.keyhaven.server.testing.StoreKind;
import dev.keyhaven.server.testing.TestServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What every request sees regardless of the operation: content type, error bodies, authentication failures,
 * malformed input, routing, size limits, CORS, health and metrics. Store-independent, so it runs on SQLite.
 */
class HttpBehaviourIT {
    private static final int BODY_LIMIT = 4096;
    private static TestServer server;
    private static KeyhavenClient root;

    @BeforeAll
    static void start() {
        server = TestServer.start(StoreKind.SQLITE, c -> c.withMaxBodyBytes(BODY_LIMIT), java.time.Clock.systemUTC());
        root = server.rootClient();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private RawResponse whoami(byte[] body, boolean stamp, Map<String, String> headers) {
        return root.post("/public/v1/query/whoami", body, headers, stamp);
    }

    private byte[] whoamiBody() {
        return Json.bytes("{\"organizationId\":\"" + server.organizationId() + "\"}");
    }

    private static void assertError(
            RawResponse response, int status, int code, String turnkeyErrorCode, String messagePart) {
        assertThat(response.status()).isEqualTo(status);
        assertThat(response.contentType()).isEqualTo("application/json");
        JsonNode body = Json.parse(response);
        assertThat(body.path("code").asInt()).isEqualTo(code);
        assertThat(body.path("message").asString()).contains(messagePart);
        assertThat(body.path("turnkeyErrorCode").asString()).isEqualTo(turnkeyErrorCode);
        assertThat(body.path("details").get(0).path("turnkeyErrorCode").asString())
                .isEqualTo(turnkeyErrorCode);
        assertThat(body.path("details").get(0).path("@type").asString())
                .isEqualTo("type.googleapis.com/errors.v1.TurnkeyErrorDetail");
    }

    @Test
    void successfulResponsesAreExactlyApplicationJson() {
        RawResponse response = whoami(whoamiBody(), true, Map.of());
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.contentType()).isEqualTo("application/json");
        assertThat(Json.parse(response).path("userId").asString()).isEqualTo(server.rootUserId());
    }

    @Test
    void requestWithoutStampIs401SignatureMissing() {
        assertError(whoami(whoamiBody(), false, Map.of()), 401, 16, "SIGNATURE_MISSING", "without a stamp");
    }

    @Test
    void malformedStampsAre401() {
        for (String stamp : List.of(
                "%%%not-base64%%%",
                b64("not json"),
                b64("[1,2]"),
                b64("{\"publicKey\":\"02aa\",\"scheme\":\"SIGNATURE_SCHEME_TK_API_P256\"}"),
                b64("{\"publicKey\":\"02aa\",\"scheme\":\"SIGNATURE_SCHEME_UNKNOWN\",\"signature\":\"00\"}"),
                b64("{\"publicKey\":\"zz\",\"scheme\":\"SIGNATURE_SCHEME_TK_API_P256\",\"signature\":\"3006\"}"))) {
            assertError(
                    whoami(whoamiBody(), false, Map.of("X-Stamp", stamp)),
                    401,
                    16,
                    "UNAUTHENTICATED",
                    "malformed activity stamp");
        }
    }

    @Test
    void aStampOverOtherBytesIs401SignatureInvalid() {
        byte[] signed = whoamiBody();
        String stamp = server.rootStamper().stamp(signed).headerValue();
        byte[] sent = Json.bytes("{\"organizationId\": \"" + server.organizationId() + "\"}");
        assertError(
                whoami(sent, false, Map.of("X-Stamp", stamp)),
                401,
                16,
                "SIGNATURE_INVALID",
                "could not verify api key signature");
    }

    @Test
    void anUnknownKeyIs401PublicKeyNotFound() {
        KeyhavenClient stranger = root.withStamper(TestServer.newKey(dev.keyhaven.client.ApiKeyStamper.Curve.P256));
        assertError(
                stranger.post("/public/v1/query/whoami", whoamiBody(), Map.of(), true),
                401,
                16,
                "PUBLIC_KEY_NOT_FOUND",
                "public key could not be found");
    }

    @Test
    void twoStampHeadersAre401() {
        String stamp = server.rootStamper().stamp(whoamiBody()).headerValue();
        assertError(
                whoami(whoamiBody(), false, Map.of("X-Stamp", stamp, "X-Stamp-WebAuthn", "{}")),
                401,
                16,
                "UNAUTHENTICATED",
                "exactly one");
    }

    @Test
    void malformedBodiesAre400() {
        assertError(
                whoami(Json.bytes("{\"organizationId\":"), true, Map.of()),
                400,
                3,
                "REQUEST_INVALID",
                "malformed JSON");
        assertError(whoami(Json.bytes("[]"), true, Map.of()), 400, 3, "REQUEST_INVALID", "must be a JSON object");
        assertError(whoami(new byte[0], true, Map.of()), 400, 3, "REQUEST_INVALID", "empty");
        assertError(
                whoami(Json.bytes("{\"organizationId\":\"a\",\"organizationId\":\"b\"}"), true, Map.of()),
                400,
                3,
                "REQUEST_INVALID",
                "organizationId");
        assertError(
                whoami(Json.bytes("{\"organizationId\":\"x\"} trailing"), true, Map.of()),
                400,
                3,
                "REQUEST_INVALID",
                "malformed JSON");
    }

    @Test
    void organizationIdIsRequiredWellFormedAndKnown() {
        assertError(whoami(Json.bytes("{}"), true, Map.of()), 400, 3, "REQUEST_INVALID", "organizationId is required");
        assertError(
                whoami(Json.bytes("{\"organizationId\":42}"), true, Map.of()),
                400,
                3,
                "REQUEST_INVALID",
                "organizationId must be a string");
        assertError(
                whoami(Json.bytes("{\"organizationId\":\"not-a-uuid\"}"), true, Map.of()),
                400,
                3,
                "INVALID_ORGANIZATION_ID",
                "malformed organization ID provided");
        assertError(
                whoami(Json.bytes("{\"organizationId\":\"00000000-0000-4000-8000-000000000000\"}"), true, Map.of()),
                404,
                5,
                "ORGANIZATION_NOT_FOUND",
                "no organization found");
    }

    @Test
    void unknownOperationsAndWrongMethodsGetJsonErrors() throws Exception {
        assertError(
                root.post("/public/v1/query/no_such_query", whoamiBody(), Map.of(), true),
                404,
                5,
                "UNSPECIFIED",
                "unknown operation");
        assertError(
                root.post("/public/v1/submit/no_such_activity", whoamiBody(), Map.of(), true),
                404,
                5,
                "UNSPECIFIED",
                "unknown operation");
        HttpResponse<String> get = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(server.baseUrl() + "/public/v1/query/whoami"))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(get.headers().firstValue("Content-Type")).contains("application/json");
        assertThat(Json.parse(get.body().getBytes(StandardCharsets.UTF_8))
                        .path("message")
                        .asString())
                .contains("use POST");
    }

    @Test
    void bodiesOverTheLimitAre413() {
        String padding = "x".repeat(BODY_LIMIT);
        byte[] big = Json.bytes("{\"organizationId\":\"" + server.organizationId() + "\",\"pad\":\"" + padding + "\"}");
        assertError(whoami(big, true, Map.of()), 413, 8, "REQUEST_INVALID", "larger than " + BODY_LIMIT);
    }

    @Test
    void corsPreflightAndResponsesAllowTheSdkHeaders() throws Exception {
        HttpResponse<Void> preflight = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(server.baseUrl() + "/public/v1/query/whoami"))
                                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                                .header("Origin", "https://app.example.com")
                                .header("Access-Control-Request-Method", "POST")
                                .header("Access-Control-Request-Headers", "x-stamp, content-type")
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
        assertThat(preflight.statusCode()).isEqualTo(204);
        assertThat(preflight.headers().firstValue("Access-Control-Allow-Origin"))
                .contains("*");
        assertThat(preflight
                        .headers()
                        .firstValue("Access-Control-Allow-Headers")
                        .orElseThrow())
                .contains("X-Stamp", "X-Stamp-WebAuthn", "X-Client-Version");
        RawResponse response = whoami(whoamiBody(), true, Map.of("Origin", "https://app.example.com"));
        assertThat(response.status()).isEqualTo(200);
    }

    @Test
    void healthAndMetricsAreServed() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        whoami(whoamiBody(), true, Map.of());
        HttpResponse<String> health = http.send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + "/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(health.statusCode()).isEqualTo(200);
        HttpResponse<String> metrics = http.send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + "/metrics"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body())
                .contains("keyhaven_http_requests_seconds_bucket", "operation=\"whoami\"", "hikaricp_connections");
    }

    private static String b64(String text) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }
}
