package dev.keyhaven.server.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.PrivateKeyParams;
import dev.keyhaven.server.testing.Json;
import dev.keyhaven.server.testing.KeyhavenProcess;
import dev.keyhaven.server.testing.PostgresCluster;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * PostgreSQL goes away under load and comes back, with the packaged jar serving on a cluster of the test's own:
 * reads, submissions and signatures (the grouped writes) get 503 with {@code Retry-After}, never a 500 and never a
 * hang; readiness says the database is unreachable while liveness holds; once the cluster is back, the same server
 * serves again by itself.
 */
class DatabaseOutageIT {
    /** Far above the few seconds an unreachable database may cost a request: a request still open then hangs. */
    private static final Duration HANG = Duration.ofSeconds(9);

    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final String UNAVAILABLE =
            "the database is unavailable; the request may be sent again (retry " + "after 5 s)";
    private static final String READY = "{\"status\":\"ok\",\"database\":\"ok\"}";
    private static final String UNREACHABLE = "{\"status\":\"unavailable\",\"database\":\"unreachable\"}";

    @TempDir
    Path directory;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicInteger sequence = new AtomicInteger();
    private String baseUrl;
    private ApiKeyStamper stamper;
    private KeyhavenClient root;
    private String signingKeyId;
    private String proxyUrl;
    private String proxyConfigId;

    private record Answer(int status, Optional<String> retryAfter, String body) {
        JsonNode json() {
            return Json.parse(Json.bytes(body));
        }
    }

    private Answer post(String path, byte[] body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(HANG)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        var stamp = stamper.stamp(body);
        request.header(stamp.headerName(), stamp.headerValue());
        return send(request.build());
    }

    private Answer get(String path) {
        return getAt(baseUrl, path);
    }

    private Answer getAt(String url, String path) {
        return send(HttpRequest.newBuilder(URI.create(url + path))
                .timeout(HANG)
                .GET()
                .build());
    }

    /** An email code through the auth proxy, which reads its configuration and writes the code. */
    private Answer initOtp() {
        return send(HttpRequest.newBuilder(URI.create(proxyUrl + "/v1/otp_init_v2"))
                .timeout(HANG)
                .header("X-Auth-Proxy-Config-Id", proxyConfigId)
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"otpType\":\"OTP_TYPE_EMAIL\",\"contact\":\"outage@example.com\"}"))
                .build());
    }

    private Answer send(HttpRequest request) {
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.headers().firstValue("Retry-After"), response.body());
        } catch (IOException e) {
            throw new AssertionError(request.uri().getPath() + " got no answer within " + HANG + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private Answer whoami() {
        return post("/public/v1/query/whoami", Json.bytes("{\"organizationId\":\"" + root.organizationId() + "\"}"));
    }

    private Answer createWallet() {
        return post(
                "/public/v1/submit/create_wallet",
                root.submitBody(
                        "ACTIVITY_TYPE_CREATE_WALLET",
                        Map.of("walletName", "wallet-" + UUID.randomUUID(), "accounts", List.of())));
    }

    private Answer sign() {
        String payload = String.format("%08x", sequence.incrementAndGet());
        return post(
                "/public/v1/submit/sign_raw_payload",
                root.submitBody(
                        "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
                        Map.of(
                                "signWith",
                                signingKeyId,
                                "payload",
                                payload,
                                "encoding",
                                "PAYLOAD_ENCODING_HEXADECIMAL",
                                "hashFunction",
                                "HASH_FUNCTION_NOT_APPLICABLE")));
    }

    private static void assertUnavailable(Answer answer) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(503);
        assertThat(answer.retryAfter()).contains("5");
        JsonNode error = answer.json();
        assertThat(error.path("code").asInt()).isEqualTo(14);
        assertThat(error.path("message").asString()).isEqualTo(UNAVAILABLE);
        assertThat(error.path("turnkeyErrorCode").asString()).isEqualTo("UNSPECIFIED");
    }

    private static void assertHealth(Answer answer, int status, String body) {
        assertThat(answer.status()).isEqualTo(status);
        assertThat(answer.body()).isEqualTo(body);
    }

    /** Repeats {@code request} until it answers 200 ({@link #PATIENCE} at most), and returns that answer. */
    private static Answer eventually200(Supplier<Answer> request) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        Answer answer = request.get();
        while (answer.status() != 200 && System.nanoTime() < deadline) {
            Thread.sleep(200);
            answer = request.get();
        }
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        return answer;
    }

    /** Clients that keep reading, submitting and signing, and keep every answer that is neither 200 nor 503. */
    private final class Load implements AutoCloseable {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
        private final AtomicInteger unavailable = new AtomicInteger();
        private final List<Thread> threads;

        Load() {
            List<Supplier<Answer>> requests = List.of(
                    DatabaseOutageIT.this::whoami,
                    DatabaseOutageIT.this::createWallet,
                    DatabaseOutageIT.this::sign,
                    DatabaseOutageIT.this::sign);
            threads = requests.stream()
                    .map(request -> Thread.ofPlatform().name("outage-load").start(() -> {
                        while (running.get()) {
                            try {
                                Answer answer = request.get();
                                if (answer.status() == 503
                                        && answer.retryAfter().isPresent()) {
                                    unavailable.incrementAndGet();
                                } else if (answer.status() != 200) {
                                    wrong.add(answer.status() + " " + answer.retryAfter() + " " + answer.body());
                                }
                            } catch (AssertionError e) {
                                wrong.add(e.getMessage());
                            }
                        }
                    }))
                    .toList();
        }

        /** Stops the clients and waits for them, so that every answer they got is in {@link #wrong}. */
        void stop() throws InterruptedException {
            running.set(false);
            for (Thread thread : threads) {
                thread.join(HANG.multipliedBy(2).toMillis());
            }
        }

        /** After a failed assertion: stop the clients; the failure is the test's outcome, not an interrupt here. */
        @Override
        public void close() {
            try {
                stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void anUnreachableDatabaseIs503WithRetryAfterAndTheServerRecoversByItself() throws Exception {
        int proxyPort;
        try (ServerSocket free = new ServerSocket(0)) {
            proxyPort = free.getLocalPort();
        }
        try (PostgresCluster cluster = PostgresCluster.create("keyhaven");
                KeyhavenProcess server = KeyhavenProcess.serve(
                        List.of(
                                "--data-dir",
                                directory.resolve("data").toString(),
                                "--port",
                                "0",
                                "--db-url",
                                cluster.url("keyhaven"),
                                "--auth-proxy-port",
                                Integer.toString(proxyPort)),
                        Map.of())) {
            baseUrl = server.baseUrl();
            proxyUrl = "http://127.0.0.1:" + proxyPort;
            proxyConfigId = server.awaitStdout(line -> line.startsWith("auth proxy config id: "), HANG)
                    .split(" ")[4];
            stamper = ApiKeyStamper.fromPrivateKey(
                    ApiKeyStamper.Curve.P256,
                    Files.readString(directory.resolve("data").resolve("root-api-key.private")));
            root = new KeyhavenClient(baseUrl, stamper, server.organizationId());
            signingKeyId = root.createPrivateKeys(
                            List.of(new PrivateKeyParams("outage-signer", "CURVE_ED25519", List.of(), List.of())))
                    .result()
                    .path("privateKeys")
                    .get(0)
                    .path("privateKeyId")
                    .asString();
            assertThat(sign().status()).isEqualTo(200);

            server.explainingFailures(() -> {
                try (Load load = new Load()) {
                    cluster.stop();
                    assertUnavailable(whoami());
                    assertUnavailable(createWallet());
                    assertUnavailable(sign());
                    assertHealth(get("/health/ready"), 503, UNREACHABLE);
                    assertHealth(get("/health"), 503, UNREACHABLE);
                    assertHealth(get("/health/live"), 200, "{\"status\":\"ok\"}");
                    assertUnavailable(get("/public/v1/discovery/webhooks/jwks"));
                    assertUnavailable(initOtp());
                    assertHealth(getAt(proxyUrl, "/health/ready"), 503, UNREACHABLE);
                    assertHealth(getAt(proxyUrl, "/health/live"), 200, "{\"status\":\"ok\"}");
                    assertThat(load.unavailable.get()).as("503s under load").isPositive();

                    cluster.start();
                    eventually200(this::whoami);
                    eventually200(this::createWallet);
                    assertThat(eventually200(this::sign)
                                    .json()
                                    .path("activity")
                                    .path("status")
                                    .asString())
                            .isEqualTo("ACTIVITY_STATUS_COMPLETED");
                    assertHealth(eventually200(() -> get("/health/ready")), 200, READY);
                    assertHealth(get("/health"), 200, READY);
                    eventually200(() -> get("/public/v1/discovery/webhooks/jwks"));
                    Answer otp = initOtp();
                    assertThat(otp.status()).as(otp.body()).isEqualTo(200);
                    assertHealth(eventually200(() -> getAt(proxyUrl, "/health/ready")), 200, READY);
                    load.stop();
                    assertThat(load.wrong)
                            .as(
                                    "answers other than 200 and 503 with Retry-After; the server's " + "failures:\n%s",
                                    failuresIn(server.stderr()))
                            .isEmpty();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted", e);
                }
            });
            assertThat(server.stderr()).as("the server log").doesNotContain("request failed");
        }
    }

    /** The server's log lines about failed requests, with the exception lines that follow each. */
    private static String failuresIn(String log) {
        StringBuilder failures = new StringBuilder();
        List<String> lines = log.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains("request failed")) {
                for (int j = i; j < Math.min(lines.size(), i + 6); j++) {
                    failures.append(lines.get(j)).append('\n');
                }
            }
        }
        return failures.toString();
    }
}
