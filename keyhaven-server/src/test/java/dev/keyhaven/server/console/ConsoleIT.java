package dev.keyhaven.server.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.ApiKeyParams;
import dev.keyhaven.client.Requests.UserParams;
import dev.keyhaven.client.Requests.WalletAccountParams;
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
import java.util.HashMap;
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
                    "/console/policies.js", "text/javascript; charset=utf-8");
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
     * Two operators in two browser profiles: the root user creates a two-approver policy in the browser (alice and
     * bob); alice's two signatures wait; bob, signed in elsewhere, sees each appear without a reload, reads its detail,
     * approves the first and rejects the second. The API then shows the policy as typed and the two activities
     * completed and rejected, with the votes cast in the browsers.
     */
    @Test
    void twoOperatorsApproveAndRejectUnderATwoApproverPolicyCreatedInTheBrowser() throws Exception {
        try (TestServer server = TestServer.start(StoreKind.SQLITE)) {
            KeyhavenClient root = server.rootClient();
            Operator rootInBrowser = Operator.addedTo(root, server.rootUserId());
            Operator alice = Operator.created(root, "alice");
            Operator bob = Operator.created(root, "bob");
            String walletId = root.createWallet("treasury", List.of(WalletAccountParams.ethereum(0)))
                    .result()
                    .path("walletId")
                    .asString();
            String address = root.query("list_wallet_accounts", Map.of("walletId", walletId))
                    .path("accounts")
                    .get(0)
                    .path("address")
                    .asString();

            Map<String, String> environment = new HashMap<>();
            environment.putAll(rootInBrowser.environment("ROOT", root.whoami().username()));
            environment.putAll(alice.environment("ALICE", "alice"));
            environment.putAll(bob.environment("BOB", "bob"));
            environment.put("KEYHAVEN_WALLET_ID", walletId);
            environment.put("KEYHAVEN_SIGN_WITH", address);
            Path screenshots = runFlow("two-operators", server, environment);

            JsonNode policies = root.listPolicies();
            assertThat(policies).hasSize(1);
            assertThat(List.of(
                            policies.get(0).path("policyName").asString(),
                            policies.get(0).path("effect").asString(),
                            policies.get(0).path("condition").asString(),
                            policies.get(0).path("consensus").asString()))
                    .containsExactly(
                            "treasury needs two",
                            "EFFECT_ALLOW",
                            "activity.action == 'SIGN' && wallet.id == '" + walletId + "'",
                            "approvers.any(u, u.id == '" + alice.userId() + "') && approvers.any(u, u.id == '"
                                    + bob.userId() + "')");
            List<JsonNode> signatures =
                    root.listActivities(null, List.of("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2"), "10", null, null);
            assertThat(signatures)
                    .extracting(a -> a.path("status").asString())
                    .containsExactly("ACTIVITY_STATUS_REJECTED", "ACTIVITY_STATUS_COMPLETED");
            JsonNode rejected = signatures.get(0);
            JsonNode completed = signatures.get(1);
            assertThat(votes(completed))
                    .containsExactly(
                            alice.userId() + " VOTE_SELECTION_APPROVED", bob.userId() + " VOTE_SELECTION_APPROVED");
            assertThat(votes(rejected))
                    .containsExactly(
                            alice.userId() + " VOTE_SELECTION_APPROVED", bob.userId() + " VOTE_SELECTION_REJECTED");
            assertThat(completed
                            .path("intent")
                            .path("signRawPayloadIntentV2")
                            .path("payload")
                            .asString())
                    .isEqualTo("approve me");
            assertThat(completed
                            .path("result")
                            .path("signRawPayloadResult")
                            .path("r")
                            .asString())
                    .hasSize(64);
            assertThat(root.getPolicyEvaluations(completed.path("id").asString()))
                    .extracting(e ->
                            e.path("policyEvaluations").get(1).path("outcome").asString())
                    .containsExactly("OUTCOME_REQUIRES_CONSENSUS", "OUTCOME_ALLOW");
            assertThat(screenshots.resolve("4-phone.png")).isRegularFile();
        }
    }

    /**
     * The Policies page: a broken condition shows its error with the column as it is typed; drafts are dry-run
     * against alice's past signature; an edit of the notes is saved; a policy is deleted after its confirmation. The
     * API then shows that the dry runs saved nothing.
     */
    @Test
    void policiesAreCheckedAsTypedDryRunEditedAndDeletedInTheBrowser() throws Exception {
        try (TestServer server = TestServer.start(StoreKind.SQLITE)) {
            KeyhavenClient root = server.rootClient();
            Operator rootInBrowser = Operator.addedTo(root, server.rootUserId());
            Operator alice = Operator.created(root, "alice");
            Operator bob = Operator.created(root, "bob");
            String walletId = root.createWallet("treasury", List.of(WalletAccountParams.ethereum(0)))
                    .result()
                    .path("walletId")
                    .asString();
            String address = root.query("list_wallet_accounts", Map.of("walletId", walletId))
                    .path("accounts")
                    .get(0)
                    .path("address")
                    .asString();
            String condition = "activity.action == 'SIGN' && wallet.id == '" + walletId + "'";
            String consensus = "approvers.any(u, u.id == '" + alice.userId() + "')";
            Activity aliceSigns = root.createPolicy("alice signs", "EFFECT_ALLOW", condition, consensus, "", null);
            Activity obsolete = root.createPolicy(
                    "obsolete",
                    "EFFECT_ALLOW",
                    "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
                    null,
                    "to be deleted",
                    null);
            Activity signed = alice.client()
                    .signRawPayload(address, "signed before", "PAYLOAD_ENCODING_TEXT_UTF8", "HASH_FUNCTION_KECCAK256");
            assertThat(List.of(aliceSigns.status(), obsolete.status(), signed.status()))
                    .containsOnly("ACTIVITY_STATUS_COMPLETED");
            String policyId = aliceSigns.result().path("policyId").asString();
            String editedNotes = "alice signs alone; edited in the browser";

            Map<String, String> environment = new HashMap<>();
            environment.putAll(rootInBrowser.environment("ROOT", root.whoami().username()));
            environment.put("KEYHAVEN_ALICE_ID", alice.userId());
            environment.put("KEYHAVEN_BOB_ID", bob.userId());
            environment.put("KEYHAVEN_POLICY_ID", policyId);
            environment.put(
                    "KEYHAVEN_OBSOLETE_POLICY_ID",
                    obsolete.result().path("policyId").asString());
            environment.put("KEYHAVEN_ACTIVITY_ID", signed.id());
            environment.put("KEYHAVEN_EDITED_NOTES", editedNotes);
            Path screenshots = runFlow("policies", server, environment);

            JsonNode policies = root.listPolicies();
            assertThat(policies).hasSize(1);
            assertThat(List.of(
                            policies.get(0).path("policyId").asString(),
                            policies.get(0).path("policyName").asString(),
                            policies.get(0).path("effect").asString(),
                            policies.get(0).path("condition").asString(),
                            policies.get(0).path("consensus").asString(),
                            policies.get(0).path("notes").asString()))
                    .as("the saved edit changed the notes only; no draft was saved")
                    .containsExactly(policyId, "alice signs", "EFFECT_ALLOW", condition, consensus, editedNotes);
            JsonNode past = root.getActivity(signed.id());
            assertThat(past.path("status").asString()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
            assertThat(past.path("votes")).hasSize(1);
            assertThat(root.getPolicyEvaluations(signed.id())).hasSize(1);
            assertThat(root.listActivities(null, null, "100", null, null))
                    .extracting(a -> a.path("type").asString())
                    .as("the browser submitted one update and one delete, and nothing for the dry runs")
                    .containsExactly(
                            "ACTIVITY_TYPE_DELETE_POLICY",
                            "ACTIVITY_TYPE_UPDATE_POLICY_V2",
                            "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
                            "ACTIVITY_TYPE_CREATE_POLICY_V3",
                            "ACTIVITY_TYPE_CREATE_POLICY_V3",
                            "ACTIVITY_TYPE_CREATE_WALLET",
                            "ACTIVITY_TYPE_CREATE_USERS_V4",
                            "ACTIVITY_TYPE_CREATE_USERS_V4",
                            "ACTIVITY_TYPE_CREATE_API_KEYS_V2");
            assertThat(screenshots.resolve("6-phone.png")).isRegularFile();
        }
    }

    /** A user whose P-256 API key the browser imports: its id, its key pair in hex, and a client stamping with it. */
    private record Operator(String userId, String publicKey, String privateKey, KeyhavenClient client) {

        /** A new user {@code name} of {@code root}'s organization, with one API key. */
        static Operator created(KeyhavenClient root, String name) {
            String privateKey = newP256PrivateKey();
            ApiKeyStamper key = ApiKeyStamper.fromPrivateKey(ApiKeyStamper.Curve.P256, privateKey);
            String userId = root.createUsers(
                            List.of(UserParams.withApiKeys(name, List.of(ApiKeyParams.of("browser", key)))))
                    .result()
                    .path("userIds")
                    .get(0)
                    .asString();
            return new Operator(userId, key.publicKey(), privateKey, root.withStamper(key));
        }

        /** A new API key for the existing user {@code userId}, added by {@code root}. */
        static Operator addedTo(KeyhavenClient root, String userId) {
            String privateKey = newP256PrivateKey();
            ApiKeyStamper key = ApiKeyStamper.fromPrivateKey(ApiKeyStamper.Curve.P256, privateKey);
            assertThat(root.createApiKeys(userId, List.of(ApiKeyParams.of("browser", key)))
                            .status())
                    .isEqualTo("ACTIVITY_STATUS_COMPLETED");
            return new Operator(userId, key.publicKey(), privateKey, root.withStamper(key));
        }

        /** {@code KEYHAVEN_<ROLE>_ID}, {@code _NAME}, {@code _PUBLIC_KEY} and {@code _PRIVATE_KEY} for a flow. */
        Map<String, String> environment(String role, String name) {
            return Map.of(
                    "KEYHAVEN_" + role + "_ID", userId,
                    "KEYHAVEN_" + role + "_NAME", name,
                    "KEYHAVEN_" + role + "_PUBLIC_KEY", publicKey,
                    "KEYHAVEN_" + role + "_PRIVATE_KEY", privateKey);
        }
    }

    /** Each vote of a rendered activity as "userId selection", in order. */
    private static List<String> votes(JsonNode activity) {
        List<String> votes = new ArrayList<>();
        activity.path("votes")
                .forEach(v -> votes.add(
                        v.path("userId").asString() + " " + v.path("selection").asString()));
        return votes;
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
