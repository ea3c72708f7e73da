package dev.keyhaven.server.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.ApiKeyParams;
import dev.keyhaven.client.Requests.RootUserParams;
import dev.keyhaven.client.Requests.UserParams;
import dev.keyhaven.server.api.JsonMappers;
import dev.keyhaven.server.testing.KeyhavenProcess;
import dev.keyhaven.server.testing.NodeTools;
import dev.keyhaven.server.testing.StoreKind;
import dev.keyhaven.server.testing.TemporaryDirectory;
import dev.keyhaven.server.testing.TestServer;
import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The operator console ({@code docs/console.md}): its routes and headers over HTTP, and one flow in a real browser,
 * Debian's {@code chromium} driven by {@code playwright-core} from {@code console-e2e/} at the repository root.
 *
 * <p>Each browser flow is one script, {@code console-e2e/<flow>.test.mjs}, run by {@link #runFlow}. The flows need
 * {@code node} (20 or newer), {@code npm} and {@code /usr/bin/chromium}; without them they are skipped loudly, unless
 * {@code KEYHAVEN_REQUIRE_NODE=1} (set by CI), which turns the skip into a failure.
 */
class ConsoleIT {
    private static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
            + "form-action 'none'";
    private static final BigInteger P256_ORDER =
            new BigInteger("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551", 16);
    private static final Duration BROWSER_FLOW = Duration.ofMinutes(2);
    private static final NodeTools NODE = new NodeTools("the console browser test");
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void servesEachFileWithItsTypeAndTheStrictPolicy() throws Exception {
        try (TestServer server = TestServer.start(StoreKind.SQLITE)) {
            Map<String, String> types = Map.of(
                    "/console", "text/html; charset=utf-8",
                    "/console/console.css", "text/css; charset=utf-8",
                    "/console/console.js", "text/javascript; charset=utf-8",
                    "/console/api.js", "text/javascript; charset=utf-8",
                    "/console/stamp.js", "text/javascript; charset=utf-8",
                    "/console/keystore.js", "text/javascript; charset=utf-8",
                    "/console/dom.js", "text/javascript; charset=utf-8",
                    "/console/activities.js", "text/javascript; charset=utf-8",
                    "/console/passkey.js", "text/javascript; charset=utf-8",
                    "/console/users.js", "text/javascript; charset=utf-8");
            for (Map.Entry<String, String> file : types.entrySet()) {
                HttpResponse<String> response = get(server.baseUrl() + file.getKey());
                assertThat(response.statusCode()).as(file.getKey()).isEqualTo(200);
                assertThat(response.headers().firstValue("Content-Type")).hasValue(file.getValue());
                assertThat(response.headers().firstValue("Content-Security-Policy"))
                        .hasValue(CSP);
                assertThat(response.headers().firstValue("X-Content-Type-Options"))
                        .hasValue("nosniff");
                assertThat(response.headers().firstValue("Referrer-Policy")).hasValue("no-referrer");
                assertThat(response.body()).isNotEmpty();
            }
            String page = get(server.baseUrl() + "/console").body();
            // No inline script or handler: the policy would block it, so the page must not need one.
            assertThat(page)
                    .contains("<script type=\"module\" src=\"/console/console.js\"></script>")
                    .doesNotContain("onclick")
                    .doesNotContainPattern("<script(?![^>]*\\bsrc=)");

            HttpResponse<String> unknown = get(server.baseUrl() + "/console/nope.js");
            assertThat(unknown.statusCode()).isEqualTo(404);
            assertThat(unknown.headers().firstValue("Content-Type")).hasValue("application/json");
            assertThat(unknown.body())
                    .isEqualTo("{\"code\":5,\"message\":\"unknown operation: /console/nope.js\","
                            + "\"details\":[{\"@type\":\"type.googleapis.com/errors.v1.TurnkeyErrorDetail\","
                            + "\"turnkeyErrorCode\":\"UNSPECIFIED\"}],\"turnkeyErrorCode\":\"UNSPECIFIED\"}");
        }
    }

    /**
     * The packaged jar serves the console from its own resources by default; {@code serve --console=false}, or
     * {@code KEYHAVEN_CONSOLE=false}, serves no console file.
     */
    @Test
    void theJarServesTheConsoleUnlessTurnedOff() throws Exception {
        record Start(List<String> options, Map<String, String> environment, boolean served) {}
        for (Start start : List.of(
                new Start(List.of(), Map.of(), true),
                new Start(List.of("--console=false"), Map.of(), false),
                new Start(List.of(), Map.of("KEYHAVEN_CONSOLE", "false"), false))) {
            Path data = TemporaryDirectory.create("keyhaven-console-jar");
            List<String> arguments = new ArrayList<>(List.of("--data-dir", data.toString(), "--port", "0"));
            arguments.addAll(start.options());
            try (KeyhavenProcess server = KeyhavenProcess.serve(arguments, start.environment())) {
                for (String path : List.of("/console", "/console/console.js")) {
                    HttpResponse<String> response = get(server.baseUrl() + path);
                    if (start.served()) {
                        assertThat(response.statusCode()).as(start + " " + path).isEqualTo(200);
                        assertThat(response.headers().firstValue("Content-Security-Policy"))
                                .hasValue(CSP);
                    } else {
                        assertThat(response.statusCode()).as(start + " " + path).isEqualTo(404);
                        assertThat(response.body()).contains("\"message\":\"unknown operation: " + path + "\"");
                    }
                }
                assertThat(get(server.baseUrl() + "/health/live").statusCode()).isEqualTo(200);
            } finally {
                TemporaryDirectory.delete(data);
            }
        }
    }

    /**
     * A second root user and a root quorum of two: two activities of the first root user wait for consensus. In
     * the browser the second root user signs in with an API key, approves one and rejects the other; the API then
     * shows them completed and rejected.
     */
    @Test
    void anApproverSignsInWithAnApiKeyAndApprovesAndRejectsInTheBrowser() throws Exception {
        try (TestServer server = TestServer.start(StoreKind.SQLITE)) {
            KeyhavenClient first = server.rootClient();
            String privateKey = newP256PrivateKey();
            ApiKeyStamper approverKey = ApiKeyStamper.fromPrivateKey(ApiKeyStamper.Curve.P256, privateKey);
            String approverId = first.createUsers(List.of(
                            UserParams.withApiKeys("approver", List.of(ApiKeyParams.of("browser", approverKey)))))
                    .result()
                    .path("userIds")
                    .get(0)
                    .asString();
            assertThat(first.updateRootQuorum(2, List.of(server.rootUserId(), approverId))
                            .status())
                    .isEqualTo("ACTIVITY_STATUS_COMPLETED");
            Activity toApprove = first.submit(
                    "create_user_tag",
                    "ACTIVITY_TYPE_CREATE_USER_TAG",
                    Map.of("userTagName", "approved in the browser", "userIds", List.of()),
                    "createUserTagResult");
            Activity toReject = first.submit(
                    "create_user_tag",
                    "ACTIVITY_TYPE_CREATE_USER_TAG",
                    Map.of("userTagName", "rejected in the browser", "userIds", List.of()),
                    "createUserTagResult");
            assertThat(List.of(toApprove.status(), toReject.status()))
                    .containsExactly("ACTIVITY_STATUS_CONSENSUS_NEEDED", "ACTIVITY_STATUS_CONSENSUS_NEEDED");

            Path screenshots = runFlow(
                    "approvals",
                    server,
                    Map.of(
                            "KEYHAVEN_APPROVER_NAME", "approver",
                            "KEYHAVEN_APPROVER_PUBLIC_KEY", approverKey.publicKey(),
                            "KEYHAVEN_APPROVER_PRIVATE_KEY", privateKey,
                            "KEYHAVEN_OTHER_PUBLIC_KEY", server.rootStamper().publicKey(),
                            "KEYHAVEN_APPROVE_ACTIVITY_ID", toApprove.id(),
                            "KEYHAVEN_REJECT_ACTIVITY_ID", toReject.id()));

            assertThat(first.getActivity(toApprove.id()).path("status").asString())
                    .isEqualTo("ACTIVITY_STATUS_COMPLETED");
            assertThat(first.getActivity(toReject.id()).path("status").asString())
                    .isEqualTo("ACTIVITY_STATUS_REJECTED");
            assertThat(first.listUserTags())
                    .extracting(tag -> tag.path("tagName").asString())
                    .containsExactly("approved in the browser");
            assertThat(screenshots.resolve("4-phone.png")).isRegularFile();
        }
    }

    /**
     * An operator (a second member of a root quorum of one) signs in with an API key, creates a tag and users, attaches
     * and detaches the tag, deletes a user after confirming, and registers a passkey for alice from the browser's
     * virtual authenticator; alice then signs in with that passkey and deletes her own API key, and her tag is
     * refused. A sub-organization's user signs in to it; the operator reads it read-only as its parent's user; the
     * sub-organization's key naming the parent is refused. The API then shows exactly what was done. The page is
     * opened as {@code localhost}: browsers run no WebAuthn ceremony for an IP address.
     */
    @Test
    void usersAreManagedAndAPasskeySignsInAndASubOrganizationIsReadInTheBrowser() throws Exception {
        try (TestServer server = TestServer.start(StoreKind.SQLITE)) {
            KeyhavenClient root = server.rootClient();
            String operatorPrivateKey = newP256PrivateKey();
            ApiKeyStamper operatorKey = ApiKeyStamper.fromPrivateKey(ApiKeyStamper.Curve.P256, operatorPrivateKey);
            String operatorId = root.createUsers(List.of(
                            UserParams.withApiKeys("operator", List.of(ApiKeyParams.of("browser", operatorKey)))))
                    .result()
                    .path("userIds")
                    .get(0)
                    .asString();
            assertThat(root.updateRootQuorum(1, List.of(server.rootUserId(), operatorId))
                            .status())
                    .isEqualTo("ACTIVITY_STATUS_COMPLETED");
            String branchPrivateKey = newP256PrivateKey();
            ApiKeyStamper branchKey = ApiKeyStamper.fromPrivateKey(ApiKeyStamper.Curve.P256, branchPrivateKey);
            Activity branch = root.createSubOrganization(
                    "Branch",
                    List.of(RootUserParams.withApiKeys("branch admin", List.of(ApiKeyParams.of("key", branchKey)))),
                    1);
            String branchId = branch.result().path("subOrganizationId").asString();
            String branchAdminId = branch.result().path("rootUserIds").get(0).asString();
            String alicePublicKey = TestServer.newKey(ApiKeyStamper.Curve.P256).publicKey();
            String aliceSecondPublicKey =
                    TestServer.newKey(ApiKeyStamper.Curve.P256).publicKey();
            Path result = Files.createTempFile("keyhaven-console-users", ".json");
            try {
                runFlow(
                        "users",
                        server,
                        Map.ofEntries(
                                Map.entry("KEYHAVEN_URL", server.baseUrl().replace("127.0.0.1", "localhost")),
                                Map.entry("KEYHAVEN_ORGANIZATION_NAME", "Test organization"),
                                Map.entry("KEYHAVEN_OPERATOR_NAME", "operator"),
                                Map.entry("KEYHAVEN_OPERATOR_PUBLIC_KEY", operatorKey.publicKey()),
                                Map.entry("KEYHAVEN_OPERATOR_PRIVATE_KEY", operatorPrivateKey),
                                Map.entry("KEYHAVEN_ALICE_API_PUBLIC_KEY", alicePublicKey),
                                Map.entry("KEYHAVEN_ALICE_SECOND_API_PUBLIC_KEY", aliceSecondPublicKey),
                                Map.entry("KEYHAVEN_SUB_ORGANIZATION_ID", branchId),
                                Map.entry("KEYHAVEN_SUB_ORGANIZATION_NAME", "Branch"),
                                Map.entry("KEYHAVEN_SUB_USER_NAME", "branch admin"),
                                Map.entry("KEYHAVEN_SUB_USER_ID", branchAdminId),
                                Map.entry("KEYHAVEN_SUB_USER_PUBLIC_KEY", branchKey.publicKey()),
                                Map.entry("KEYHAVEN_SUB_USER_PRIVATE_KEY", branchPrivateKey),
                                Map.entry("KEYHAVEN_FLOW_RESULT", result.toString())));
                String credentialId = JsonMappers.strict()
                        .readTree(Files.readString(result))
                        .path("credentialId")
                        .asString();

                JsonNode users = root.listUsers();
                assertThat(users.valueStream().map(u -> u.path("userName").asString()))
                        .containsExactly("root", "operator", "alice");
                JsonNode alice = users.get(2);
                assertThat(alice.path("userEmail").asString()).isEqualTo("alice@corp.example");
                assertThat(alice.path("apiKeys")
                                .valueStream()
                                .map(key -> key.path("apiKeyName").asString() + " "
                                        + key.path("credential")
                                                .path("publicKey")
                                                .asString()))
                        .containsExactly("alice second key " + aliceSecondPublicKey);
                JsonNode tags = root.listUserTags();
                assertThat(tags)
                        .extracting(tag -> tag.path("tagName").asString())
                        .containsExactly("operators");
                assertThat(alice.path("userTags").valueStream().map(JsonNode::asString))
                        .containsExactly(tags.get(0).path("tagId").asString());
                JsonNode passkeys = root.getAuthenticators(alice.path("userId").asString());
                assertThat(passkeys.size()).isEqualTo(1);
                JsonNode passkey = passkeys.get(0);
                assertThat(passkey.path("authenticatorName").asString()).isEqualTo("alice passkey");
                assertThat(passkey.path("credentialId").asString()).isEqualTo(credentialId);
                assertThat(passkey.path("transports").valueStream().map(JsonNode::asString))
                        .containsExactly("AUTHENTICATOR_TRANSPORT_INTERNAL");
                assertThat(passkey.path("attestationType").asString()).isEqualTo("none");
                assertThat(root.forOrganization(branchId)
                                .listUsers()
                                .valueStream()
                                .map(u -> u.path("userName").asString()))
                        .containsExactly("branch admin");
            } finally {
                Files.deleteIfExists(result);
            }
        }
    }

    /**
     * Runs {@code console-e2e/<flow>.test.mjs} against {@code server} with {@code KEYHAVEN_URL},
     * {@code KEYHAVEN_ORGANIZATION_ID}, {@code KEYHAVEN_SCREENSHOTS} and {@code environment}; fails unless it exits 0.
     * Returns the flow's screenshot directory, {@code keyhaven-server/target/console-screenshots/<flow>/}.
     */
    private static Path runFlow(String flow, TestServer server, Map<String, String> environment)
            throws IOException, InterruptedException {
        Path e2e = NodeTools.packageDirectory("console-e2e");
        Path node = NODE.node();
        if (!Files.isExecutable(CHROMIUM)) {
            NODE.unavailable(CHROMIUM + " is not installed (apt-get install chromium)");
        }
        NODE.installPackagesIfStale(e2e);
        Path target = e2e.resolveSibling("keyhaven-server/target");
        Path screenshots = target.resolve("console-screenshots").resolve(flow);
        ProcessBuilder browser = new ProcessBuilder(node.toString(), flow + ".test.mjs").directory(e2e.toFile());
        Map<String, String> variables = browser.environment();
        variables.put("KEYHAVEN_URL", server.baseUrl());
        variables.put("KEYHAVEN_ORGANIZATION_ID", server.organizationId());
        variables.put("KEYHAVEN_SCREENSHOTS", screenshots.toString());
        variables.putAll(environment);
        int exitCode =
                NodeTools.run(browser, target.resolve("console-e2e-" + flow + ".log"), "[browser] ", BROWSER_FLOW);
        assertThat(exitCode)
                .as("exit code of node " + flow + ".test.mjs (its output is above)")
                .isZero();
        return screenshots;
    }

    private static HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /** A P-256 private scalar in [1, n-1], in hex, as an API key download holds it. */
    private static String newP256PrivateKey() {
        SecureRandom random = new SecureRandom();
        while (true) {
            byte[] candidate = new byte[32];
            random.nextBytes(candidate);
            BigInteger d = new BigInteger(1, candidate);
            if (d.signum() > 0 && d.compareTo(P256_ORDER) < 0) {
                return HexFormat.of().formatHex(candidate);
            }
        }
    }
}
