package dev.keyhaven.server.webhook;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.ApiKeyParams;
import dev.keyhaven.client.Requests.PrivateKeyParams;
import dev.keyhaven.client.Requests.RootUserParams;
import dev.keyhaven.client.WebhookKeys;
import dev.keyhaven.client.WebhookVerifier;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.app.KeyhavenConfig;
import dev.keyhaven.server.testing.NonRootUser;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.Policies;
import dev.keyhaven.server.testing.TestServer;
import dev.keyhaven.server.testing.WebhookReceiver;
import dev.keyhaven.server.testing.WebhookReceiver.Received;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Webhook endpoints through the API, and deliveries to a real receiver on loopback: headers, signatures verified
 * with the client's verifier against the served JWKS, tampering, retries with a stable event id, terminal failures
 * and redelivery (an activity), the signing path, a parent's endpoint receiving its sub-organizations' events, key
 * rotation.
 */
class WebhooksIT extends OnBothStores {
    private static final String ACTIVITY_UPDATES = "ACTIVITY_UPDATES";

    private WebhookReceiver receiver;
    private final HttpClient http = HttpClient.newHttpClient();

    @Override
    protected KeyhavenConfig configure(KeyhavenConfig defaults) {
        return defaults.withWebhooks(WebhookSettings.DEFAULT
                .withAllowInsecureUrls(true)
                .withRetries(4, Duration.ofMillis(50), Duration.ofMillis(200))
                .withPollInterval(Duration.ofMillis(50))
                // Longer than any test: a hanging receiver's attempts stay in flight until the test releases them.
                .withRequestTimeout(Duration.ofSeconds(60)));
    }

    @BeforeAll
    void startReceiver() {
        receiver = WebhookReceiver.start();
    }

    @AfterAll
    void stopReceiver() {
        receiver.close();
    }

    private Activity createEndpoint(KeyhavenClient client, String url, String name, Object subscriptions) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("url", url);
        p.put("name", name);
        if (subscriptions != null) {
            p.put("subscriptions", subscriptions);
        }
        return client.submit(
                "create_webhook_endpoint", "ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT", p, "createWebhookEndpointResult");
    }

    private String subscribedEndpoint(KeyhavenClient client, String path) {
        Activity created = createEndpoint(
                client, receiver.url(path), "endpoint " + path, List.of(Map.of("eventType", ACTIVITY_UPDATES)));
        assertThat(created.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        return created.result().path("endpointId").asString();
    }

    private Activity updateEndpoint(Map<String, Object> params) {
        return root.submit(
                "update_webhook_endpoint",
                "ACTIVITY_TYPE_UPDATE_WEBHOOK_ENDPOINT",
                params,
                "updateWebhookEndpointResult");
    }

    private Activity deleteEndpoint(String endpointId) {
        return root.submit(
                "delete_webhook_endpoint",
                "ACTIVITY_TYPE_DELETE_WEBHOOK_ENDPOINT",
                Map.of("endpointId", endpointId),
                "deleteWebhookEndpointResult");
    }

    private Activity someActivity(KeyhavenClient client) {
        return client.createUserTag("tag-" + System.nanoTime(), List.of());
    }

    private WebhookVerifier verifier(String prefix) {
        return new WebhookVerifier(
                WebhookKeys.fetching(
                        http,
                        URI.create(server.baseUrl() + "/public/v1/discovery/webhooks/jwks"),
                        prefix,
                        Clock.systemUTC()),
                prefix,
                Duration.ofMinutes(5),
                Clock.systemUTC());
    }

    private JsonNode deliveries(String endpointId) {
        return root.query("list_webhook_deliveries", Map.of("endpointId", endpointId))
                .path("deliveries");
    }

    private JsonNode awaitDelivery(String endpointId, String eventId, String status) {
        Instant deadline = Instant.now().plusSeconds(20);
        while (true) {
            for (JsonNode d : deliveries(endpointId)) {
                if (d.path("eventId").asString().equals(eventId)
                        && d.path("status").asString().equals(status)) {
                    return d;
                }
            }
            assertThat(Instant.now())
                    .as("delivery of " + eventId + " reaching " + status)
                    .isBefore(deadline);
            WebhookReceiver.pause(50);
        }
    }

    /** A copy of received headers that can be changed (names stay case-insensitive). */
    private static Map<String, List<String>> withHeader(Map<String, List<String>> headers) {
        Map<String, List<String>> copy = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        copy.putAll(headers);
        return copy;
    }

    @Test
    void endpointsAreCreatedListedUpdatedAndDeleted() {
        Activity created = createEndpoint(
                root,
                "https://hooks.example.com/keyhaven",
                "ops",
                List.of(Map.of("eventType", ACTIVITY_UPDATES, "isActive", false)));
        assertThat(created.type()).isEqualTo("ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT");
        String id = created.result().path("endpointId").asString();
        JsonNode endpoint = created.result().path("webhookEndpoint");
        assertThat(endpoint.path("endpointId").asString()).isEqualTo(id);
        assertThat(endpoint.path("organizationId").asString()).isEqualTo(server.organizationId());
        assertThat(endpoint.path("url").asString()).isEqualTo("https://hooks.example.com/keyhaven");
        assertThat(endpoint.path("name").asString()).isEqualTo("ops");
        assertThat(endpoint.path("isActive").asBoolean(false)).isTrue();
        assertThat(endpoint.path("subscriptions").get(0).path("eventType").asString())
                .isEqualTo(ACTIVITY_UPDATES);
        assertThat(endpoint.path("subscriptions").get(0).path("isActive").asBoolean(true))
                .isFalse();

        JsonNode listed = root.query("list_webhook_endpoints", Map.of()).path("webhookEndpoints");
        assertThat(listed).anySatisfy(e -> assertThat(e).isEqualTo(endpoint));

        Activity updated = updateEndpoint(
                Map.of("endpointId", id, "name", "ops-2", "isActive", false, "url", "https://hooks.example.com/v2"));
        JsonNode after = updated.result().path("webhookEndpoint");
        assertThat(after.path("name").asString()).isEqualTo("ops-2");
        assertThat(after.path("url").asString()).isEqualTo("https://hooks.example.com/v2");
        assertThat(after.path("isActive").asBoolean(true)).isFalse();
        assertThat(updated.result().path("endpointId").asString()).isEqualTo(id);

        Activity deleted = deleteEndpoint(id);
        assertThat(deleted.result().path("endpointId").asString()).isEqualTo(id);
        assertThat(root.query("list_webhook_endpoints", Map.of()).path("webhookEndpoints"))
                .noneSatisfy(e -> assertThat(e.path("endpointId").asString()).isEqualTo(id));
    }

    @Test
    void endpointParametersAreValidated() {
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.url",
                                () -> createEndpoint(root, "ftp://hooks.example.com", "x", null))
                        .serverMessage())
                .isEqualTo("bad request body: parameters.url must be an https URL");
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.url",
                                () -> createEndpoint(root, "https://user:pw@hooks.example.com", "x", null))
                        .serverMessage())
                .isEqualTo("bad request body: parameters.url must not contain user information (user:password@)");
        apiError(ErrorCode.BAD_REQUEST, "parameters.url", () -> createEndpoint(root, "not a url", "x", null));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.name",
                () -> createEndpoint(root, "https://hooks.example.com", " ", null));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.subscriptions[0].eventType",
                () -> createEndpoint(
                        root,
                        "https://hooks.example.com",
                        "x",
                        List.of(Map.of("eventType", "BALANCE_CONFIRMED_UPDATES"))));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.subscriptions[0].filtersJson",
                () -> createEndpoint(
                        root,
                        "https://hooks.example.com",
                        "x",
                        List.of(Map.of("eventType", ACTIVITY_UPDATES, "filtersJson", "{\"a\":1}"))));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.subscriptions",
                () -> createEndpoint(
                        root,
                        "https://hooks.example.com",
                        "x",
                        List.of(Map.of("eventType", ACTIVITY_UPDATES), Map.of("eventType", ACTIVITY_UPDATES))));
        apiError(ErrorCode.BAD_REQUEST, "parameters.url", () -> createEndpoint(root, null, "x", null));
        apiError(ErrorCode.NOT_FOUND, null, () -> updateEndpoint(Map.of("endpointId", "nope", "name", "y")));
        apiError(ErrorCode.NOT_FOUND, null, () -> deleteEndpoint("nope"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.url",
                () -> updateEndpoint(Map.of("endpointId", "nope", "url", "gopher://x")));
        apiError(ErrorCode.NOT_FOUND, null, () -> deliveries("nope"));
        apiError(ErrorCode.BAD_REQUEST, "endpointId", () -> root.query("list_webhook_deliveries", Map.of()));
        KeyhavenApiException noDelivery = apiError(ErrorCode.NOT_FOUND, null, () -> redeliver(root, "nope"));
        assertThat(noDelivery.getMessage())
                .isEqualTo("HTTP 404 (code 5, UNSPECIFIED): no webhook delivery found " + "with id nope");
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.deliveryId",
                                () -> root.submit(
                                        "redeliver_webhook_delivery",
                                        "ACTIVITY_TYPE_REDELIVER_WEBHOOK_DELIVERY",
                                        Map.of(),
                                        "redeliverWebhookDeliveryResult"))
                        .serverMessage())
                .isEqualTo("bad request body: parameters.deliveryId is required");
    }

    @Test
    void anOrganizationHasAtMostTenEndpoints() {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String subId = root.createSubOrganization(
                        "many-endpoints",
                        List.of(RootUserParams.withApiKeys("r", List.of(ApiKeyParams.of("k", key)))),
                        1)
                .result()
                .path("subOrganizationId")
                .asString();
        KeyhavenClient sub = root.withStamper(key).forOrganization(subId);
        for (int i = 0; i < 10; i++) {
            createEndpoint(sub, "https://hooks.example.com/" + i, "e" + i, null);
        }
        assertThat(apiError(
                                ErrorCode.LIMIT_EXCEEDED,
                                null,
                                () -> createEndpoint(sub, "https://hooks.example.com/x", "x", null))
                        .serverMessage())
                .isEqualTo("organization has reached the maximum of 10 webhook endpoints");
    }

    @Test
    void aDeliveryIsTheActivitySignedAsTheSeedSays() throws Exception {
        String endpointId = subscribedEndpoint(root, "/plain");
        Activity activity = someActivity(root);
        Received delivery = receiver.awaitActivity(activity.id(), "ACTIVITY_STATUS_COMPLETED");

        assertThat(delivery.method()).isEqualTo("POST");
        assertThat(delivery.header("Content-Type")).isEqualTo("application/json");
        assertThat(delivery.header("X-Keyhaven-Organization-Id")).isEqualTo(server.organizationId());
        assertThat(delivery.header("X-Keyhaven-Event-Type")).isEqualTo(ACTIVITY_UPDATES);
        assertThat(delivery.header("X-Keyhaven-Webhook-Version")).isEqualTo("1");
        assertThat(delivery.header("X-Keyhaven-Signature-Algorithm")).isEqualTo("ed25519");
        assertThat(delivery.header("X-Keyhaven-Signature-Version")).isEqualTo("v1");
        assertThat(delivery.header("X-Keyhaven-Signature")).matches("[0-9a-f]{128}");
        assertThat(Long.parseLong(delivery.header("X-Keyhaven-Timestamp")))
                .isBetween(System.currentTimeMillis() - 60_000, System.currentTimeMillis());
        JsonNode body = root.json().readTree(delivery.body());
        JsonNode fetched = root.getActivity(activity.id());
        assertThat(body).isEqualTo(fetched);

        WebhookVerifier.Result result = verifier("Keyhaven").verify(delivery.headers(), delivery.body());
        assertThat(result)
                .isEqualTo(new WebhookVerifier.Verified(
                        delivery.header("X-Keyhaven-Event-Id"),
                        delivery.header("X-Keyhaven-Signature-Key-Id"),
                        Long.parseLong(delivery.header("X-Keyhaven-Timestamp"))));
        JsonNode recorded = awaitDelivery(endpointId, delivery.header("X-Keyhaven-Event-Id"), "DELIVERED");
        assertThat(recorded.path("attempts").asInt()).isEqualTo(1);
        assertThat(recorded.path("lastStatusCode").asInt()).isEqualTo(200);
        deleteEndpoint(endpointId);
    }

    @Test
    void tamperingWithTheBodyTheEventIdOrTheTimestampFailsVerification() {
        String endpointId = subscribedEndpoint(root, "/tamper");
        Activity activity = someActivity(root);
        Received delivery = receiver.awaitActivity(activity.id(), "ACTIVITY_STATUS_COMPLETED");
        WebhookVerifier verifier = verifier("Keyhaven");
        assertThat(verifier.verify(delivery.headers(), delivery.body()).ok()).isTrue();

        byte[] body = delivery.body().clone();
        body[body.length / 2] ^= 0x01;
        assertThat(verifier.verify(delivery.headers(), body))
                .isEqualTo(new WebhookVerifier.Rejected(
                        WebhookVerifier.Reason.INVALID_SIGNATURE, java.util.Optional.empty()));
        Map<String, List<String>> otherEvent = withHeader(delivery.headers());
        String eventId = delivery.header("X-Keyhaven-Event-Id");
        otherEvent.put(
                "X-Keyhaven-Event-Id",
                List.of(eventId.substring(0, eventId.length() - 1) + (eventId.endsWith("a") ? "b" : "a")));
        assertThat(verifier.verify(otherEvent, delivery.body()).ok()).isFalse();
        Map<String, List<String>> otherTime = withHeader(delivery.headers());
        otherTime.put(
                "X-Keyhaven-Timestamp",
                List.of(Long.toString(Long.parseLong(delivery.header("X-Keyhaven-Timestamp")) + 1)));
        assertThat(verifier.verify(otherTime, delivery.body()).ok()).isFalse();
        byte[] reSerialised = root.json()
                .writerWithDefaultPrettyPrinter()
                .writeValueAsBytes(root.json().readTree(delivery.body()));
        assertThat(verifier.verify(delivery.headers(), reSerialised).ok()).isFalse();
        deleteEndpoint(endpointId);
    }

    @Test
    void aReceiverAnswering500TwiceGetsTheSameEventIdAThirdTime() {
        Map<String, AtomicInteger> attemptsPerEvent = new java.util.concurrent.ConcurrentHashMap<>();
        receiver.answer(r -> !r.path().equals("/flaky")
                ? 200
                : attemptsPerEvent
                                        .computeIfAbsent(r.header("X-Keyhaven-Event-Id"), id -> new AtomicInteger())
                                        .incrementAndGet()
                                <= 2
                        ? 500
                        : 200);
        try {
            String endpointId = subscribedEndpoint(root, "/flaky");
            Activity activity = someActivity(root);
            List<Received> attempts = receiver.await(
                    r -> r.path().equals("/flaky") && r.bodyText().contains(activity.id()), 3);
            assertThat(attempts)
                    .extracting(r -> r.header("X-Keyhaven-Event-Id"))
                    .containsOnly(attempts.getFirst().header("X-Keyhaven-Event-Id"));
            assertThat(attempts)
                    .extracting(r -> r.header("X-Keyhaven-Signature"))
                    .doesNotHaveDuplicates();
            WebhookVerifier verifier = verifier("Keyhaven");
            assertThat(attempts)
                    .allSatisfy(r -> assertThat(
                                    verifier.verify(r.headers(), r.body()).ok())
                            .isTrue());
            JsonNode recorded =
                    awaitDelivery(endpointId, attempts.getFirst().header("X-Keyhaven-Event-Id"), "DELIVERED");
            assertThat(recorded.path("attempts").asInt()).isEqualTo(3);
            deleteEndpoint(endpointId);
        } finally {
            receiver.answer(r -> 200);
        }
    }

    @Test
    void aTerminalAnswerFailsAtOnceRetriesStopAtTheLimitAndRedeliveryQueuesAgain() {
        receiver.answer(r -> switch (r.path()) {
            case "/gone" -> 410;
            case "/down" -> 503;
            default -> 200;
        });
        try {
            String gone = subscribedEndpoint(root, "/gone");
            String down = subscribedEndpoint(root, "/down");
            Activity activity = someActivity(root);
            String goneEvent = receiver.await(
                            r -> r.path().equals("/gone") && r.bodyText().contains(activity.id()), 1)
                    .getFirst()
                    .header("X-Keyhaven-Event-Id");
            JsonNode failed = awaitDelivery(gone, goneEvent, "FAILED");
            assertThat(failed.path("attempts").asInt()).isEqualTo(1);
            assertThat(failed.path("lastStatusCode").asInt()).isEqualTo(410);
            assertThat(failed.path("lastError").asString()).isEqualTo("HTTP 410");

            String downEvent = receiver.await(
                            r -> r.path().equals("/down") && r.bodyText().contains(activity.id()), 1)
                    .getFirst()
                    .header("X-Keyhaven-Event-Id");
            JsonNode exhausted = awaitDelivery(down, downEvent, "FAILED");
            assertThat(exhausted.path("attempts").asInt()).isEqualTo(4);
            assertThat(receiver.received().stream()
                            .filter(r ->
                                    r.path().equals("/down") && r.bodyText().contains(activity.id())))
                    .hasSize(4);

            receiver.answer(r -> 200);
            Activity redelivery = redeliver(root, failed.path("deliveryId").asString());
            assertThat(redelivery.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
            assertThat(redelivery.type()).isEqualTo("ACTIVITY_TYPE_REDELIVER_WEBHOOK_DELIVERY");
            JsonNode requeued = redelivery.result().path("delivery");
            assertThat(requeued.path("deliveryId").asString())
                    .isEqualTo(failed.path("deliveryId").asString());
            assertThat(requeued.path("status").asString()).isEqualTo("PENDING");
            assertThat(requeued.path("attempts").asInt()).isZero();
            assertThat(requeued.path("eventId").asString()).isEqualTo(goneEvent);
            // Recorded like any activity, with its intent.
            JsonNode recorded = root.getActivity(redelivery.id());
            assertThat(recorded.path("intent")
                            .path("redeliverWebhookDeliveryIntent")
                            .path("deliveryId")
                            .asString())
                    .isEqualTo(failed.path("deliveryId").asString());

            JsonNode delivered = awaitDelivery(gone, goneEvent, "DELIVERED");
            assertThat(delivered.path("deliveryId").asString())
                    .isEqualTo(failed.path("deliveryId").asString());
            deleteEndpoint(gone);
            deleteEndpoint(down);
        } finally {
            receiver.answer(r -> 200);
        }
    }

    private Activity redeliver(KeyhavenClient client, String deliveryId) {
        return client.submit(
                "redeliver_webhook_delivery",
                "ACTIVITY_TYPE_REDELIVER_WEBHOOK_DELIVERY",
                Map.of("deliveryId", deliveryId),
                "redeliverWebhookDeliveryResult");
    }

    /** A delivery that failed for good: its receiver answered 410. */
    private JsonNode failedDelivery(String path) {
        String endpointId = subscribedEndpoint(root, path);
        Activity activity = someActivity(root);
        String eventId = receiver.await(
                        r -> r.path().equals(path) && r.bodyText().contains(activity.id()), 1)
                .getFirst()
                .header("X-Keyhaven-Event-Id");
        return awaitDelivery(endpointId, eventId, "FAILED");
    }

    private String deliveryStatus(JsonNode delivery) {
        return deliveries(delivery.path("endpointId").asString())
                .valueStream()
                .filter(d -> d.path("deliveryId")
                        .asString()
                        .equals(delivery.path("deliveryId").asString()))
                .findFirst()
                .orElseThrow()
                .path("status")
                .asString();
    }

    /**
     * Redelivery writes and sends a signed request, so it is an activity: the old query path is gone (404), a
     * read-only session cannot submit it, and a user outside the root quorum needs a policy that allows it, which
     * can read the delivery's id.
     */
    @Test
    void redeliveryIsAnActivityThatReadOnlySessionsCannotSubmitAndPoliciesDecide() {
        receiver.answer(r -> r.path().equals("/refused") ? 410 : 200);
        try {
            JsonNode failed = failedDelivery("/refused");
            String deliveryId = failed.path("deliveryId").asString();
            String queryBody =
                    "{\"organizationId\":\"" + server.organizationId() + "\",\"deliveryId\":\"" + deliveryId + "\"}";

            String session = root.submit(
                            "create_read_only_session",
                            "ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION",
                            Map.of(),
                            "createReadOnlySessionResult")
                    .result()
                    .path("session")
                    .asString();
            KeyhavenClient.RawResponse sessionQuery = root.post(
                    "/public/v1/query/redeliver_webhook_delivery",
                    queryBody.getBytes(StandardCharsets.UTF_8),
                    Map.of("X-Session", session),
                    false);
            assertThat(sessionQuery.status()).isEqualTo(404);
            assertThat(root.json().readTree(sessionQuery.body()).path("message").asString())
                    .isEqualTo("unknown operation: /public/v1/query/redeliver_webhook_delivery");
            KeyhavenClient.RawResponse sessionSubmit = root.post(
                    "/public/v1/submit/redeliver_webhook_delivery",
                    root.submitBody("ACTIVITY_TYPE_REDELIVER_WEBHOOK_DELIVERY", Map.of("deliveryId", deliveryId)),
                    Map.of("X-Session", session),
                    false);
            assertThat(sessionSubmit.status()).isEqualTo(401);
            assertThat(root.json()
                            .readTree(sessionSubmit.body())
                            .path("message")
                            .asString())
                    .isEqualTo("a read-only session (X-Session) authenticates queries only; stamp submissions");

            KeyhavenApiException asQuery = apiError(
                    ErrorCode.UNKNOWN_OPERATION,
                    null,
                    () -> root.query("redeliver_webhook_delivery", Map.of("deliveryId", deliveryId)));
            assertThat(asQuery.getMessage())
                    .isEqualTo("HTTP 404 (code 5, UNSPECIFIED): unknown operation: "
                            + "/public/v1/query/redeliver_webhook_delivery");
            assertThat(deliveryStatus(failed)).isEqualTo("FAILED");

            NonRootUser alice = NonRootUser.create(root, "alice-" + store);
            Activity denied = redeliver(alice.client(), deliveryId);
            assertThat(denied.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
            assertThat(deliveryStatus(failed)).isEqualTo("FAILED");

            Policies.allow(
                    root,
                    "activity.type == 'ACTIVITY_TYPE_REDELIVER_WEBHOOK_DELIVERY' "
                            + "&& activity.resource == 'WEBHOOK_ENDPOINT' && activity.action == 'UPDATE' "
                            + "&& activity.params.delivery_id == '" + deliveryId + "'");
            receiver.answer(r -> 200);
            Activity allowed = redeliver(alice.client(), deliveryId);
            assertThat(allowed.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
            awaitDelivery(
                    failed.path("endpointId").asString(), failed.path("eventId").asString(), "DELIVERED");

            assertThat(root.listActivities(null, List.of("ACTIVITY_TYPE_REDELIVER_WEBHOOK_DELIVERY"), null, null, null))
                    .extracting(a -> a.path("id").asString())
                    .contains(denied.id(), allowed.id());
            deleteEndpoint(failed.path("endpointId").asString());
        } finally {
            Policies.deleteAll(root);
            receiver.answer(r -> 200);
        }
    }

    @Test
    void aDeliveryStillInFlightIsNotRedelivered() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        receiver.answer(r -> {
            if (r.path().equals("/held")) {
                try {
                    release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return 200;
        });
        try {
            String endpointId = subscribedEndpoint(root, "/held");
            Activity activity = someActivity(root);
            String eventId = receiver.await(
                            r -> r.path().equals("/held") && r.bodyText().contains(activity.id()), 1)
                    .getFirst()
                    .header("X-Keyhaven-Event-Id");
            JsonNode inFlight = awaitDelivery(endpointId, eventId, "PENDING");
            String deliveryId = inFlight.path("deliveryId").asString();
            KeyhavenApiException refused = apiError(() -> redeliver(root, deliveryId));
            assertThat(refused.getMessage())
                    .isEqualTo(
                            "HTTP 400 (code 3, REQUEST_INVALID): webhook delivery " + deliveryId + " is still pending");
            release.countDown();
            awaitDelivery(endpointId, eventId, "DELIVERED");
            deleteEndpoint(endpointId);
        } finally {
            release.countDown();
            receiver.answer(r -> 200);
        }
    }

    @Test
    void signaturesAndFailuresAreDeliveredToo() {
        String endpointId = subscribedEndpoint(root, "/signing");
        Activity keys = root.createPrivateKeys(List.of(
                new PrivateKeyParams("webhook-signer-" + System.nanoTime(), "CURVE_ED25519", List.of(), List.of())));
        String privateKeyId =
                keys.result().path("privateKeys").get(0).path("privateKeyId").asString();
        Activity signed = root.signRawPayload(
                privateKeyId, "68656c6c6f", "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NOT_APPLICABLE");
        Received delivery = receiver.awaitActivity(signed.id(), "ACTIVITY_STATUS_COMPLETED");
        assertThat(delivery.bodyText()).contains("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2");

        KeyhavenApiException failure = apiError(() -> root.signRawPayload(
                "no-such-key", "68656c6c6f", "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NOT_APPLICABLE"));
        assertThat(failure.httpStatus()).isEqualTo(404);
        receiver.await(
                r -> r.path().equals("/signing")
                        && r.bodyText().contains("ACTIVITY_STATUS_FAILED")
                        && r.bodyText().contains("no-such-key"),
                1);
        deleteEndpoint(endpointId);
    }

    @Test
    void aParentEndpointReceivesItsSubOrganizationsEventsAndInactiveOnesReceiveNothing() {
        String parentEndpoint = subscribedEndpoint(root, "/parent");
        String inactive = createEndpoint(
                        root,
                        receiver.url("/inactive"),
                        "inactive",
                        List.of(Map.of("eventType", ACTIVITY_UPDATES, "isActive", false)))
                .result()
                .path("endpointId")
                .asString();
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String subId = root.createSubOrganization(
                        "webhook-sub", List.of(RootUserParams.withApiKeys("r", List.of(ApiKeyParams.of("k", key)))), 1)
                .result()
                .path("subOrganizationId")
                .asString();
        KeyhavenClient sub = root.withStamper(key).forOrganization(subId);
        Activity inSub = someActivity(sub);
        Received delivery = receiver.awaitActivity(inSub.id(), "ACTIVITY_STATUS_COMPLETED");
        assertThat(delivery.path()).isEqualTo("/parent");
        assertThat(delivery.header("X-Keyhaven-Organization-Id")).isEqualTo(subId);
        assertThat(verifier("Keyhaven")
                        .verify(delivery.headers(), delivery.body())
                        .ok())
                .isTrue();

        subscribedEndpoint(sub, "/sub");
        Activity second = someActivity(sub);
        List<Received> both = receiver.await(r -> r.bodyText().contains(second.id()), 2);
        assertThat(both).extracting(Received::path).containsExactlyInAnyOrder("/parent", "/sub");
        assertThat(both.get(0).header("X-Keyhaven-Event-Id"))
                .isEqualTo(both.get(1).header("X-Keyhaven-Event-Id"));

        // The parent's endpoint deleted: the sub-organization's next event goes to its own endpoint only.
        deleteEndpoint(parentEndpoint);
        Activity third = someActivity(sub);
        receiver.awaitActivity(third.id(), "ACTIVITY_STATUS_COMPLETED");
        Activity rootEvent = someActivity(root);
        WebhookReceiver.pause(300);
        assertThat(receiver.received()).noneSatisfy(r -> assertThat(r.path()).isEqualTo("/inactive"));
        assertThat(receiver.received())
                .noneSatisfy(r -> assertThat(r.bodyText()).contains(rootEvent.id()));
        assertThat(receiver.received().stream()
                        .filter(r -> r.bodyText().contains(third.id()))
                        .map(Received::path))
                .containsExactly("/sub");
        deleteEndpoint(inactive);
    }

    @Test
    void anActivityWaitingForConsensusIsDeliveredThenDeliveredAgainWhenApproved() {
        String endpointId = subscribedEndpoint(root, "/consensus");
        ApiKeyStamper a = TestServer.newKey(ApiKeyStamper.Curve.P256);
        ApiKeyStamper b = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String subId = root.createSubOrganization(
                        "two-of-two",
                        List.of(
                                RootUserParams.withApiKeys("a", List.of(ApiKeyParams.of("ka", a))),
                                RootUserParams.withApiKeys("b", List.of(ApiKeyParams.of("kb", b)))),
                        2)
                .result()
                .path("subOrganizationId")
                .asString();
        KeyhavenClient asA = root.withStamper(a).forOrganization(subId);
        byte[] body = asA.submitBody(
                "ACTIVITY_TYPE_CREATE_USER_TAG", Map.of("userTagName", "needs-two", "userIds", List.of()));
        Activity waiting = asA.submitRaw("create_user_tag", body, "createUserTagResult");
        assertThat(waiting.status()).isEqualTo("ACTIVITY_STATUS_CONSENSUS_NEEDED");
        Received first = receiver.awaitActivity(waiting.id(), "ACTIVITY_STATUS_CONSENSUS_NEEDED");

        Activity approved =
                root.withStamper(b).forOrganization(subId).submitRaw("create_user_tag", body, "createUserTagResult");
        assertThat(approved.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        Received second = receiver.awaitActivity(waiting.id(), "ACTIVITY_STATUS_COMPLETED");
        assertThat(second.header("X-Keyhaven-Event-Id")).isNotEqualTo(first.header("X-Keyhaven-Event-Id"));
        assertThat(receiver.received().stream()
                        .filter(r ->
                                r.path().equals("/consensus") && r.bodyText().contains(waiting.id())))
                .hasSize(2);
        deleteEndpoint(endpointId);
    }

    @Test
    void aHangingReceiverHoldsAtMostFourAttemptsAndDoesNotStallOthers() throws Exception {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        AtomicInteger hanging = new AtomicInteger();
        AtomicInteger mostHanging = new AtomicInteger();
        receiver.answer(r -> {
            if (!r.path().equals("/hanging")) {
                return 200;
            }
            mostHanging.accumulateAndGet(hanging.incrementAndGet(), Math::max);
            try {
                release.await(90, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                hanging.decrementAndGet();
            }
            return 200;
        });
        try {
            String slow = subscribedEndpoint(root, "/hanging");
            for (int i = 0; i < 8; i++) {
                someActivity(root);
            }
            receiver.await(r -> r.path().equals("/hanging"), 4);
            String fast = subscribedEndpoint(root, "/prompt");
            Activity activity = someActivity(root);
            Received delivered = receiver.awaitActivity(activity.id(), "ACTIVITY_STATUS_COMPLETED");
            assertThat(delivered.path()).isEqualTo("/prompt");
            assertThat(release.getCount())
                    .as("delivered while the hanging receiver still holds its attempts")
                    .isEqualTo(1);
            assertThat(mostHanging.get()).isEqualTo(4);
            release.countDown();
            deleteEndpoint(slow);
            deleteEndpoint(fast);
        } finally {
            release.countDown();
            receiver.answer(r -> 200);
        }
    }

    @Test
    void anOrganizationWithoutSubscribedEndpointsGetsNoOutboxRows() throws Exception {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String subId = root.createSubOrganization(
                        "quiet", List.of(RootUserParams.withApiKeys("r", List.of(ApiKeyParams.of("k", key)))), 1)
                .result()
                .path("subOrganizationId")
                .asString();
        KeyhavenClient sub = root.withStamper(key).forOrganization(subId);
        createEndpoint(sub, receiver.url("/quiet"), "unsubscribed", List.of());
        Activity keys =
                sub.createPrivateKeys(List.of(new PrivateKeyParams("quiet", "CURVE_ED25519", List.of(), List.of())));
        sub.signRawPayload(
                keys.result().path("privateKeys").get(0).path("privateKeyId").asString(),
                "00",
                "PAYLOAD_ENCODING_HEXADECIMAL",
                "HASH_FUNCTION_NOT_APPLICABLE");
        try (Connection db = DriverManager.getConnection(server.databaseUrl());
                PreparedStatement count =
                        db.prepareStatement("SELECT COUNT(*) FROM webhook_deliveries WHERE organization_id = ?")) {
            count.setString(1, subId);
            try (ResultSet rs = count.executeQuery()) {
                rs.next();
                assertThat(rs.getLong(1)).isZero();
            }
        }
    }

    @Test
    void theJwksIsPublicCachedAndKeepsARotatedKeySoOldDeliveriesStillVerify() throws Exception {
        HttpResponse<byte[]> jwks = http.send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + "/public/v1/discovery/webhooks/jwks"))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(jwks.statusCode()).isEqualTo(200);
        assertThat(jwks.headers().firstValue("Cache-Control"))
                .contains("public, max-age=86400, s-maxage=86400, stale-if-error=604800");
        assertThat(jwks.headers().firstValue("Content-Type")).contains("application/json");
        JsonNode key = root.json().readTree(jwks.body()).path("keys").get(0);
        assertThat(key.path("kty").asString()).isEqualTo("OKP");
        assertThat(key.path("crv").asString()).isEqualTo("Ed25519");
        assertThat(key.path("alg").asString()).isEqualTo("EdDSA");
        assertThat(key.path("use").asString()).isEqualTo("sig");
        assertThat(key.path("keyhaven_signature_algorithm").asString()).isEqualTo("ed25519");
        assertThat(key.path("keyhaven_signature_version").asString()).isEqualTo("v1");
        assertThat(java.util.Base64.getUrlDecoder().decode(key.path("x").asString()))
                .hasSize(32);

        String endpointId = subscribedEndpoint(root, "/rotation");
        WebhookKeys keys = WebhookKeys.fetching(
                http,
                URI.create(server.baseUrl() + "/public/v1/discovery/webhooks/jwks"),
                "Keyhaven",
                Clock.systemUTC());
        WebhookVerifier verifier = new WebhookVerifier(keys, "Keyhaven", Duration.ofMinutes(5), Clock.systemUTC());
        Activity before = someActivity(root);
        Received old = receiver.awaitActivity(before.id(), "ACTIVITY_STATUS_COMPLETED");
        assertThat(verifier.verify(old.headers(), old.body()).ok()).isTrue();
        int fetches = keys.fetches();

        String newKeyId = server.keyhaven().webhookKeys().rotate();
        assertThat(newKeyId).isNotEqualTo(old.header("X-Keyhaven-Signature-Key-Id"));
        Activity after = someActivity(root);
        Received fresh = receiver.awaitActivity(after.id(), "ACTIVITY_STATUS_COMPLETED");
        assertThat(fresh.header("X-Keyhaven-Signature-Key-Id")).isEqualTo(newKeyId);
        assertThat(verifier.verify(fresh.headers(), fresh.body()).ok()).isTrue();
        assertThat(keys.fetches()).isEqualTo(fetches + 1);
        assertThat(verifier.verify(old.headers(), old.body()).ok()).isTrue();
        assertThat(keys.fetches()).isEqualTo(fetches + 1);

        JsonNode rotated = root.json()
                .readTree(http.send(
                                HttpRequest.newBuilder(
                                                URI.create(server.baseUrl() + "/public/v1/discovery/webhooks/jwks"))
                                        .GET()
                                        .build(),
                                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8))
                        .body())
                .path("keys");
        assertThat(rotated)
                .extracting(k -> k.path("kid").asString())
                .startsWith(newKeyId)
                .contains(old.header("X-Keyhaven-Signature-Key-Id"));
        deleteEndpoint(endpointId);
    }
}
