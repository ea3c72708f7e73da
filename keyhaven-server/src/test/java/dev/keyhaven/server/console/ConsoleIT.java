package dev.keyhaven.server.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.ApiKeyParams;
import dev.keyhaven.client.Requests.PrivateKeyParams;
import dev.keyhaven.client.Requests.RootUserParams;
import dev.keyhaven.client.Requests.UserParams;
import dev.keyhaven.client.Requests.WalletAccountParams;
import dev.keyhaven.server.api.JsonMappers;
import dev.keyhaven.server.testing.KeyhavenProcess;
import dev.keyhaven.server.testing.NodeTools;
import dev.keyhaven.server.testing.StoreKind;
import dev.keyhaven.server.testing.TemporaryDirectory;
import dev.keyhaven.server.testing.TestServer;
import dev.keyhaven.server.testing.WebhookReceiver;
import dev.keyhaven.server.webhook.WebhookSettings;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.stream.Stream;
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
            // Every module of the console's sources, so that one left out of ConsoleRoutes.ASSETS fails here.
            Map<String, String> types = new LinkedHashMap<>();
            types.put("/console", "text/html; charset=utf-8");
            types.put("/console/console.css", "text/css; charset=utf-8");
            try (Stream<Path> sources = Files.list(Path.of("src/main/resources/console"))) {
                sources.map(source -> source.getFileName().toString())
                        .filter(name -> name.endsWith(".js"))
                        .sorted()
                        .forEach(name -> types.put("/console/" + name, "text/javascript; charset=utf-8"));
            }
            assertThat(types).containsKeys("/console/console.js", "/console/audit.js", "/console/policies.js");
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
            Operator approver = Operator.created(first, "approver");
            assertThat(first.updateRootQuorum(2, List.of(server.rootUserId(), approver.userId()))
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

            Map<String, String> environment = new HashMap<>(approver.environment("APPROVER", "approver"));
            environment.putAll(Map.of(
                    "KEYHAVEN_OTHER_PUBLIC_KEY", server.rootStamper().publicKey(),
                    "KEYHAVEN_APPROVE_ACTIVITY_ID", toApprove.id(),
                    "KEYHAVEN_REJECT_ACTIVITY_ID", toReject.id()));
            Path screenshots = runFlow("approvals", server, environment);

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
     * In the browser an operator creates a wallet with an Ethereum and a Solana account, copies an address, adds two
     * Ethereum accounts, and tags a private key; the API then has exactly the wallet, accounts and addresses the page
     * showed, and the one tag left on the key. The flow also takes the README's screenshot.
     */
    @Test
    void anOperatorCreatesAWalletAndAccountsAndTagsAPrivateKeyInTheBrowser() throws Exception {
        try (TestServer server = TestServer.start(StoreKind.SQLITE)) {
            KeyhavenClient root = server.rootClient();
            Operator operator = operator(server, 1);
            String privateKeyId = root.createPrivateKeys(List.of(new PrivateKeyParams(
                            "cold-key", "CURVE_SECP256K1", List.of(), List.of("ADDRESS_FORMAT_ETHEREUM"))))
                    .result()
                    .path("privateKeys")
                    .get(0)
                    .path("privateKeyId")
                    .asString();
            Path output = Files.createTempFile("keyhaven-console-wallets", ".json");
            try {
                Map<String, String> environment = new HashMap<>(operator.environment("OPERATOR", "operator"));
                environment.put("KEYHAVEN_PRIVATE_KEY_ID", privateKeyId);
                environment.put("KEYHAVEN_FLOW_OUTPUT", output.toString());
                Path screenshots = runFlow("wallets", server, environment);

                JsonNode shown = root.json().readTree(Files.readString(output));
                String walletId = shown.path("walletId").asString();
                assertThat(root.getWallet(walletId).path("walletName").asString())
                        .isEqualTo("Treasury");
                List<String> accounts = new ArrayList<>();
                for (JsonNode account : root.query(
                                "list_wallet_accounts",
                                Map.of("walletId", walletId, "paginationOptions", Map.of("limit", "100")))
                        .path("accounts")) {
                    accounts.add(account.path("addressFormat").asString() + " · "
                            + account.path("curve").asString() + " · "
                            + account.path("path").asString() + " = "
                            + account.path("address").asString());
                }
                List<String> onThePage = new ArrayList<>();
                for (JsonNode account : shown.path("accounts")) {
                    onThePage.add(account.path("meta").asString() + " = "
                            + account.path("address").asString());
                }
                assertThat(accounts).isEqualTo(onThePage);
                assertThat(accounts)
                        .extracting(account -> account.substring(0, account.indexOf(" = ")))
                        .containsExactly(
                                "ADDRESS_FORMAT_ETHEREUM · CURVE_SECP256K1 · m/44'/60'/0'/0/0",
                                "ADDRESS_FORMAT_SOLANA · CURVE_ED25519 · m/44'/501'/0'/0'",
                                "ADDRESS_FORMAT_ETHEREUM · CURVE_SECP256K1 · m/44'/60'/0'/0/1",
                                "ADDRESS_FORMAT_ETHEREUM · CURVE_SECP256K1 · m/44'/60'/0'/0/2");

                JsonNode tags = root.query("list_private_key_tags", Map.of()).path("privateKeyTags");
                assertThat(tags).hasSize(1);
                assertThat(tags.get(0).path("tagName").asString()).isEqualTo("cold storage");
                JsonNode key = root.getPrivateKey(privateKeyId);
                assertThat(key.path("privateKeyTags").get(0).asString())
                        .isEqualTo(tags.get(0).path("tagId").asString());
                assertThat(key.path("privateKeyTags")).hasSize(1);
                assertThat(key.path("addresses").get(0).path("address").asString())
                        .isEqualTo(shown.path("privateKeyAddress").asString());

                // The README shows docs/images/console.png, a copy of this flow's readme.png: it must keep its
                // dimensions (its pixels may differ) and stay small.
                Path committed = NodeTools.packageDirectory("console-e2e").resolveSibling("docs/images/console.png");
                assertThat(pngSize(screenshots.resolve("readme.png"))).isEqualTo(List.of(1024, 768));
                assertThat(pngSize(committed)).isEqualTo(List.of(1024, 768));
                assertThat(Files.size(committed)).isLessThan(150_000);
            } finally {
                Files.deleteIfExists(output);
            }
        }
    }

    /**
     * A receiver answers a delivery 400: the browser shows it failed with that status, redelivers it and
     * shows it delivered; the receiver got the same event twice. The browser also creates, deactivates and deletes an
     * endpoint.
     */
    @Test
    void aFailedWebhookDeliveryIsShownAndRedeliveredInTheBrowser() throws Exception {
        try (WebhookReceiver receiver = WebhookReceiver.start();
                TestServer server = TestServer.start(
                        StoreKind.SQLITE,
                        config -> config.withWebhooks(WebhookSettings.DEFAULT
                                .withAllowInsecureUrls(true)
                                .withPollInterval(Duration.ofMillis(50))),
                        Clock.systemUTC())) {
            // The user tag's event fails once (a 400 fails at once); everything else is delivered.
            Predicate<WebhookReceiver.Received> tagEvent =
                    request -> request.bodyText().contains("\"type\":\"ACTIVITY_TYPE_CREATE_USER_TAG\"");
            AtomicBoolean failedOnce = new AtomicBoolean();
            receiver.answer(request -> tagEvent.test(request) && failedOnce.compareAndSet(false, true) ? 400 : 200);
            KeyhavenClient root = server.rootClient();
            Operator operator = operator(server, 1);
            String endpointId = root.submit(
                            "create_webhook_endpoint",
                            "ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT",
                            Map.of(
                                    "url",
                                    receiver.url("/hooks"),
                                    "name",
                                    "payments",
                                    "subscriptions",
                                    List.of(Map.of("eventType", "ACTIVITY_UPDATES"))),
                            "createWebhookEndpointResult")
                    .result()
                    .path("endpointId")
                    .asString();
            root.createUserTag("delivered to payments", List.of());
            String failedEventId = receiver.await(tagEvent, 1).getFirst().header("X-Keyhaven-Event-Id");
            awaitDelivery(root, endpointId, failedEventId, "FAILED");

            Map<String, String> environment = new HashMap<>(operator.environment("OPERATOR", "operator"));
            environment.put("KEYHAVEN_ENDPOINT_ID", endpointId);
            environment.put("KEYHAVEN_FAILED_EVENT_ID", failedEventId);
            environment.put("KEYHAVEN_SECOND_ENDPOINT_URL", receiver.url("/second"));
            runFlow("webhooks", server, environment);

            assertThat(receiver.received().stream()
                            .filter(request -> failedEventId.equals(request.header("X-Keyhaven-Event-Id")))
                            .map(WebhookReceiver.Received::path))
                    .containsExactly("/hooks", "/hooks");
            JsonNode delivery = awaitDelivery(root, endpointId, failedEventId, "DELIVERED");
            assertThat(delivery.path("attempts").asInt()).isEqualTo(1);
            assertThat(delivery.path("lastStatusCode").asInt()).isEqualTo(200);
            assertThat(delivery.has("lastError")).isFalse();
            JsonNode endpoints = root.query("list_webhook_endpoints", Map.of()).path("webhookEndpoints");
            assertThat(endpoints).hasSize(1);
            assertThat(endpoints.get(0).path("name").asString()).isEqualTo("payments");
            assertThat(endpoints.get(0).path("isActive").asBoolean()).isTrue();
        }
    }

    /**
     * On PostgreSQL: the Organization page shows the name, the root quorum by name and a sub-organization, and the
     * browser verifies the audit log (against the server's key, another key, and the pinned identity key). With an
     * entry altered in the database, or the row of an entry that keeps only its hash edited, the page names the entry.
     */
    @Test
    void theOrganizationPageShowsTheQuorumASubOrganizationAndTheAuditLogVerifiedOnPostgres() throws Exception {
        try (TestServer server = TestServer.start(StoreKind.POSTGRES)) {
            KeyhavenClient root = server.rootClient();
            ApiKeyStamper branchKey = TestServer.newKey(ApiKeyStamper.Curve.P256);
            String suborgId = root.createSubOrganization(
                            "Branch office",
                            List.of(RootUserParams.withApiKeys(
                                    "branch-root", List.of(ApiKeyParams.of("branch", branchKey)))),
                            1)
                    .result()
                    .path("subOrganizationId")
                    .asString();
            Operator operator = operator(server, 2);
            server.keyhaven().auditHeads().signHeads();
            JsonNode log = root.query("get_audit_log", Map.of("limit", 500));
            long entries = log.path("head").path("seq").asLong();
            assertThat(log.path("entries")).hasSize((int) entries);
            assertThat(log.path("latestSignedHead").path("seq").asLong()).isEqualTo(entries);

            Map<String, String> environment = new HashMap<>(operator.environment("OPERATOR", "operator"));
            environment.put("KEYHAVEN_ORGANIZATION_NAME", "Test organization");
            environment.put("KEYHAVEN_QUORUM_NAMES", "[\"root\",\"operator\"]");
            environment.put("KEYHAVEN_SUBORG_ID", suborgId);
            environment.put("KEYHAVEN_SUBORG_NAME", "Branch office");
            environment.put("KEYHAVEN_IDENTITY_KEY", server.identityPublicKey());
            environment.put("KEYHAVEN_OTHER_PUBLIC_KEY", branchKey.publicKey());
            environment.put("KEYHAVEN_AUDIT_ENTRIES", Long.toString(entries));
            environment.put("KEYHAVEN_AUDIT_HEAD", log.path("head").path("hash").asString());
            environment.put(
                    "KEYHAVEN_AUDIT_SIGNED_AT",
                    log.path("latestSignedHead").path("signedAt").asString());
            runFlow("organization", server, environment);

            try (Connection db = DriverManager.getConnection(server.databaseUrl())) {
                // An entry that keeps its content, altered: the chain's own check names it.
                String org = server.organizationId();
                String[] kept = firstRow(
                        db,
                        "SELECT seq, content FROM audit_entries WHERE organization_id = ? AND content IS NOT NULL "
                                + "ORDER BY seq LIMIT 1",
                        org);
                update(
                        db,
                        "UPDATE audit_entries SET content = ? WHERE organization_id = ? AND seq = ?",
                        kept[1] + " ",
                        org,
                        Long.parseLong(kept[0]));
                runTampered(
                        server,
                        operator,
                        "entry " + kept[0] + ": its hash does not match its fields (the entry was altered)");
                update(
                        db,
                        "UPDATE audit_entries SET content = ? WHERE organization_id = ? AND seq = ?",
                        kept[1],
                        org,
                        Long.parseLong(kept[0]));
                // A vote's row edited behind the log: its entry keeps only the hash of it.
                String[] vote = firstRow(
                        db,
                        "SELECT seq, record_id FROM audit_entries WHERE organization_id = ? AND content IS NULL "
                                + "AND kind = 'VOTE' ORDER BY seq LIMIT 1",
                        org);
                update(db, "UPDATE votes SET message = message || ' ' WHERE id = ?", vote[1]);
                runTampered(
                        server,
                        operator,
                        "entry " + vote[0] + ": vote " + vote[1]
                                + " does not match the hash its entry keeps (the row was edited)");
            }
        }
    }

    /** The organization flow with the audit log tampered with: the page must say {@code broken} and nothing else. */
    private static void runTampered(TestServer server, Operator operator, String broken) throws Exception {
        Map<String, String> tampered = new HashMap<>(operator.environment("OPERATOR", "operator"));
        tampered.put("KEYHAVEN_TAMPERED", broken);
        runFlow("organization", server, tampered);
    }

    private static String[] firstRow(Connection db, String sql, String arg) throws SQLException {
        try (PreparedStatement query = db.prepareStatement(sql)) {
            query.setString(1, arg);
            try (ResultSet rs = query.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return new String[] {rs.getString(1), rs.getString(2)};
            }
        }
    }

    private static void update(Connection db, String sql, Object... args) throws SQLException {
        try (PreparedStatement update = db.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                update.setObject(i + 1, args[i]);
            }
            assertThat(update.executeUpdate()).isEqualTo(1);
        }
    }

    /** Creates the user "operator" with a new P-256 API key; the root quorum becomes {@code threshold} of root and it. */
    private static Operator operator(TestServer server, int threshold) {
        KeyhavenClient root = server.rootClient();
        Operator operator = Operator.created(root, "operator");
        assertThat(root.updateRootQuorum(threshold, List.of(server.rootUserId(), operator.userId()))
                        .status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");
        return operator;
    }

    /** The delivery of {@code eventId} to the endpoint once it has {@code status} (or fails after 20 s). */
    private static JsonNode awaitDelivery(KeyhavenClient client, String endpointId, String eventId, String status) {
        Instant deadline = Instant.now().plusSeconds(20);
        while (true) {
            for (JsonNode delivery : client.query("list_webhook_deliveries", Map.of("endpointId", endpointId))
                    .path("deliveries")) {
                if (delivery.path("eventId").asString().equals(eventId)
                        && delivery.path("status").asString().equals(status)) {
                    return delivery;
                }
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("the delivery of event " + eventId + " is not " + status + " after 20 s");
            }
            WebhookReceiver.pause(50);
        }
    }

    /** The width and height a PNG file's header declares (failing unless it is a PNG). */
    private static List<Integer> pngSize(Path png) throws IOException {
        byte[] head = new byte[24];
        try (InputStream in = Files.newInputStream(png)) {
            assertThat(in.readNBytes(head, 0, head.length)).isEqualTo(head.length);
        }
        assertThat(Arrays.copyOf(head, 8))
                .as(png + " is a PNG")
                .isEqualTo(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'});
        assertThat(new String(head, 12, 4, StandardCharsets.US_ASCII)).isEqualTo("IHDR");
        ByteBuffer size = ByteBuffer.wrap(head, 16, 8);
        return List.of(size.getInt(), size.getInt());
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
