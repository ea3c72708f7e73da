package dev.keyhaven.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.server.app.OtpSettings;
import dev.keyhaven.server.testing.StoreKind;
import dev.keyhaven.server.testing.TestServer;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The generated documentation against the running server: the OpenAPI document lists exactly the routes both
 * listeners serve, is valid OpenAPI 3.1 and equals the committed {@code docs/openapi.json}; {@code docs/operations.md}
 * equals what the code generates and links only to files that exist; {@code GET /} points to them.
 *
 * <p>Run with {@code -Dkeyhaven.docs.write=true} to rewrite the committed files from the code (see
 * {@link OperationsCatalogue#REGENERATE}).
 */
class ApiDocumentsIT {
    private static final boolean WRITE = Boolean.getBoolean("keyhaven.docs.write");
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Set<String> METHODS =
            Set.of("get", "head", "post", "options", "put", "delete", "patch", "trace");
    private static TestServer server;
    private static ApiServer api;
    private static AuthProxyServer authProxy;

    @BeforeAll
    static void start() {
        server = TestServer.start(
                StoreKind.SQLITE,
                c -> c.withOtp(OtpSettings.defaults().withAuthProxyPort(OptionalInt.of(0))),
                Clock.systemUTC());
        api = server.apiServer();
        authProxy = server.keyhaven().authProxyServer().orElseThrow();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void theServedDocumentIsTheCommittedOne() throws IOException {
        HttpResponse<byte[]> response = send("GET", server.baseUrl() + ApiDescription.OPENAPI_PATH);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        String served = new String(response.body(), StandardCharsets.UTF_8);
        Path committed = docs().resolve("openapi.json");
        if (WRITE) {
            Files.writeString(committed, served);
        }
        assertThat(Files.readString(committed))
                .as("docs/openapi.json is stale; regenerate it: " + OperationsCatalogue.REGENERATE)
                .isEqualTo(served);
    }

    @Test
    void theCommittedOperationsPageIsTheGeneratedOne() throws IOException {
        String generated = OperationsCatalogue.render(api.description());
        Path committed = docs().resolve("operations.md");
        if (WRITE) {
            Files.writeString(committed, generated);
        }
        assertThat(Files.readString(committed))
                .as("docs/operations.md is stale; regenerate it: " + OperationsCatalogue.REGENERATE)
                .isEqualTo(generated);
        assertThat(generated)
                .contains(
                        "| `sign_raw_payload` | `ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2`<br>`ACTIVITY_TYPE_SIGN_RAW_PAYLOAD` |"
                                + " [keyhaven-server/src/main/"
                                + "java/dev/keyhaven/server/signing/SignRawPayloadHandler.java](../keyhaven-server/src/main/"
                                + "java/dev/keyhaven/server/signing/SignRawPayloadHandler.java) |")
                .contains("`ACTIVITY_TYPE_CREATE_USERS_V4`")
                .contains("| `otp_init_v2` (captcha) | [keyhaven-server/src/main/java/dev/keyhaven/server/authproxy/"
                        + "OtpInitEndpoint.java]")
                .contains("| `wallet_kit_config` | [keyhaven-server/src/main/java/dev/keyhaven/server/authproxy/"
                        + "WalletKitConfigEndpoint.java]")
                .contains("| `account` | [keyhaven-server/src/main/java/dev/keyhaven/server/authproxy/"
                        + "AccountEndpoint.java]")
                .contains("| `get_user` | [keyhaven-server/src/main/java/dev/keyhaven/server/user/UserQueries.java]");
        Matcher links = Pattern.compile("\\]\\(\\.\\./([^)]+)\\)").matcher(generated);
        int count = 0;
        while (links.find()) {
            count++;
            assertThat(docs().resolveSibling(links.group(1)))
                    .as("linked from docs/operations.md")
                    .isRegularFile();
        }
        assertThat(count).isGreaterThan(api.description().operations().size());
    }

    @Test
    void theDocumentListsExactlyTheRoutesEachListenerServes() throws IOException {
        JsonNode document = document();
        Set<ServedRoutes.Route> onApi = new HashSet<>();
        Set<ServedRoutes.Route> onAuthProxy = new HashSet<>();
        for (Map.Entry<String, JsonNode> path : document.path("paths").properties()) {
            Set<String> servers = new HashSet<>();
            path.getValue()
                    .path("servers")
                    .forEach(s -> servers.add(s.path("url").asString()));
            for (Map.Entry<String, JsonNode> member : path.getValue().properties()) {
                if (!METHODS.contains(member.getKey())) {
                    continue;
                }
                ServedRoutes.Route route =
                        new ServedRoutes.Route(member.getKey().toUpperCase(java.util.Locale.ROOT), path.getKey());
                if (servers.isEmpty() || servers.contains("/")) {
                    onApi.add(route);
                }
                if (servers.contains("{authProxy}")) {
                    onAuthProxy.add(route);
                }
            }
        }
        assertThat(new TreeSet<>(names(onApi))).isEqualTo(new TreeSet<>(names(api.routes())));
        assertThat(new TreeSet<>(names(onAuthProxy))).isEqualTo(new TreeSet<>(names(authProxy.routes())));
        // Independently of the recorded routes: each documented route answers as routed, not with the fallback.
        for (ServedRoutes.Route route : onApi) {
            expectRouted(server.baseUrl(), route, 401);
        }
        for (ServedRoutes.Route route : onAuthProxy) {
            expectRouted(server.authProxyUrl(), route, 400);
        }
    }

    @Test
    void submitsListTheActivityTypesTheirHandlersAccept() throws IOException {
        JsonNode paths = document().path("paths");
        JsonNode signRaw = paths.path("/public/v1/submit/sign_raw_payload").path("post");
        assertThat(signRaw.path("requestBody")
                        .path("content")
                        .path("application/json")
                        .path("schema")
                        .path("allOf")
                        .get(1)
                        .path("properties")
                        .path("type")
                        .path("enum")
                        .toString())
                .isEqualTo("[\"ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2\",\"ACTIVITY_TYPE_SIGN_RAW_PAYLOAD\"]");
        assertThat(signRaw.path("x-keyhaven-activity-versions")
                        .get(0)
                        .path("intentKey")
                        .asString())
                .isEqualTo("signRawPayloadIntentV2");
        assertThat(signRaw.path("x-keyhaven-activity-versions")
                        .get(1)
                        .path("intentKey")
                        .asString())
                .isEqualTo("signRawPayloadIntent");
        JsonNode createUsers = paths.path("/public/v1/submit/create_users").path("post");
        assertThat(createUsers.path("description").asString()).contains("ACTIVITY_TYPE_CREATE_USERS_V4");
        assertThat(paths.path("/public/v1/query/get_user")
                        .path("post")
                        .path("requestBody")
                        .path("content")
                        .path("application/json")
                        .path("schema")
                        .path("$ref")
                        .asString())
                .isEqualTo("#/components/schemas/QueryRequest");
        JsonNode components = document().path("components");
        assertThat(components
                        .path("schemas")
                        .path("SubmitEnvelope")
                        .path("required")
                        .toString())
                .isEqualTo("[\"type\",\"timestampMs\",\"organizationId\",\"parameters\"]");
        assertThat(components.path("schemas").path("Error").path("required").toString())
                .isEqualTo("[\"code\",\"message\",\"details\"]");
        assertThat(components
                        .path("securitySchemes")
                        .path("apiKeyStamp")
                        .path("name")
                        .asString())
                .isEqualTo("X-Stamp");
        assertThat(components
                        .path("securitySchemes")
                        .path("webAuthnStamp")
                        .path("name")
                        .asString())
                .isEqualTo("X-Stamp-WebAuthn");
        assertThat(paths.path("/v1/otp_init_v2")
                        .path("servers")
                        .get(0)
                        .path("url")
                        .asString())
                .isEqualTo("{authProxy}");
    }

    @Test
    void theDocumentIsValidOpenApi31() throws IOException {
        String text = new String(
                send("GET", server.baseUrl() + ApiDescription.OPENAPI_PATH).body(), StandardCharsets.UTF_8);
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        options.setValidateInternalRefs(true);
        SwaggerParseResult result = new OpenAPIV3Parser().readContents(text, null, options);
        assertThat(result.getMessages()).isEmpty();
        assertThat(result.getOpenAPI().getOpenapi()).isEqualTo("3.1.0");
        assertThat(result.getOpenAPI().getPaths()).containsKey("/public/v1/submit/sign_raw_payload");

        // What the parser leaves unchecked: unique operation ids, and every reference resolving in the document.
        JsonNode document = JSON.readTree(text);
        Set<String> ids = new HashSet<>();
        for (JsonNode item : document.path("paths")) {
            for (Map.Entry<String, JsonNode> member : item.properties()) {
                if (METHODS.contains(member.getKey())) {
                    assertThat(ids.add(member.getValue().path("operationId").asString()))
                            .as("operationId " + member.getValue().path("operationId"))
                            .isTrue();
                    assertThat(member.getValue().path("responses").isEmpty()).isFalse();
                }
            }
        }
        Matcher refs = Pattern.compile("\"\\$ref\" : \"#/([^\"]+)\"").matcher(text);
        int count = 0;
        while (refs.find()) {
            count++;
            assertThat(document.at("/" + refs.group(1)).isMissingNode())
                    .as(refs.group(1))
                    .isFalse();
        }
        assertThat(count).isGreaterThan(100);
        Set<String> schemes = new HashSet<>();
        document.path("components").path("securitySchemes").properties().forEach(e -> schemes.add(e.getKey()));
        for (JsonNode item : document.path("paths")) {
            for (JsonNode operation : item) {
                operation
                        .path("security")
                        .forEach(requirement -> requirement
                                .properties()
                                .forEach(e -> assertThat(schemes).contains(e.getKey())));
            }
        }
    }

    @Test
    void theRootPointsToTheDocumentation() throws IOException {
        HttpResponse<byte[]> get = send("GET", server.baseUrl() + "/");
        assertThat(get.statusCode()).isEqualTo(200);
        assertThat(get.headers().firstValue("Content-Type")).hasValue("application/json");
        JsonNode body = JSON.readTree(get.body());
        assertThat(body.path("name").asString()).isEqualTo("Keyhaven");
        assertThat(body.path("version").asString()).isNotEmpty();
        assertThat(body.path("links").path("openapi").asString()).isEqualTo("/public/v1/openapi.json");
        assertThat(body.path("documentation").asString()).contains("docs/operations.md");

        HttpResponse<byte[]> head = send("HEAD", server.baseUrl() + "/");
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.body()).isEmpty();
        assertThat(head.headers().firstValue("Content-Length")).hasValue(Integer.toString(get.body().length));
    }

    /** The route answers with what its handler gives an empty, unauthenticated request, not the fallback 404. */
    private static void expectRouted(String base, ServedRoutes.Route route, int refusedPost) throws IOException {
        HttpResponse<byte[]> response = send(route.method(), base + route.path());
        int expected = switch (route.method()) {
            case "POST" -> refusedPost;
            case "OPTIONS" -> 204;
            default -> 200;
        };
        assertThat(response.statusCode())
                .as(route.method() + " " + route.path())
                .isEqualTo(expected);
    }

    private static HttpResponse<byte[]> send(String method, String url) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url))
                .method(
                        method,
                        method.equals("POST")
                                ? HttpRequest.BodyPublishers.ofString("{}")
                                : HttpRequest.BodyPublishers.noBody())
                .header("Content-Type", "application/json")
                .build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private static JsonNode document() throws IOException {
        return JSON.readTree(
                send("GET", server.baseUrl() + ApiDescription.OPENAPI_PATH).body());
    }

    private static List<String> names(Set<ServedRoutes.Route> routes) {
        return routes.stream().map(r -> r.method() + " " + r.path()).toList();
    }

    /** The repository's docs directory (tests run in the module's directory). */
    private static Path docs() {
        Path here = Path.of("").toAbsolutePath();
        while (here != null && !Files.isRegularFile(here.resolve("ARCHITECTURE.md"))) {
            here = here.getParent();
        }
        assertThat(here).as("the repository's root").isNotNull();
        return here.resolve("docs");
    }
}
