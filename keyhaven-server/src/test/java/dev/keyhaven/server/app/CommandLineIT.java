package dev.keyhaven.server.app;

import static dev.keyhaven.server.testing.ApiErrors.assertError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.UserParams;
import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.testing.KeyhavenProcess;
import dev.keyhaven.server.testing.KeyhavenProcess.Result;
import dev.keyhaven.server.testing.StoreKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/** {@code init}, {@code serve} and {@code request} as operators and scripts use them: the real jar, as a process. */
class CommandLineIT {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    @TempDir
    Path directory;

    @ParameterizedTest
    @EnumSource(ApiKeyStamper.Curve.class)
    void initPrintsOneJsonObjectAndServeThenAnswersTheOperatorsKey(ApiKeyStamper.Curve curve) throws IOException {
        String privateKey = privateKeyHex(curve);
        ApiKeyStamper operator = ApiKeyStamper.fromPrivateKey(curve, privateKey);
        Path data = directory.resolve("data");
        List<String> init = List.of(
                "init",
                "--data-dir",
                data.toString(),
                "--organization-name",
                "Acme",
                "--user-name",
                "ops",
                "--api-public-key",
                operator.publicKey(),
                "--api-key-curve",
                curve.curveType());

        Result created = KeyhavenProcess.run(init, Map.of());
        assertThat(created.exitCode())
                .as("exit status; stderr: %s", created.stderr())
                .isZero();
        JsonNode ids = onlyJsonObject(created.stdout());
        assertThat(ids.propertyNames())
                .containsExactly(
                        "organizationId",
                        "userId",
                        "apiKeyId",
                        "bundleSignerPublicKey",
                        "authProxyConfigId",
                        "otpSignerPublicKey",
                        "sessionSignerPublicKey");
        String authProxyConfigId = ids.path("authProxyConfigId").asString();
        String organizationId = ids.path("organizationId").asString();
        String signer = ids.path("bundleSignerPublicKey").asString();
        assertThat(signer).matches("04[0-9a-f]{128}");
        Result signerKey = KeyhavenProcess.run(List.of("signer-key", "--data-dir", data.toString()), Map.of());
        assertThat(signerKey.exitCode())
                .as("signer-key exit status; stderr: %s", signerKey.stderr())
                .isZero();
        assertThat(signerKey.stdout().strip())
                .as("signer-key prints the key init made")
                .isEqualTo(signer);

        Result again = KeyhavenProcess.run(init, Map.of());
        assertThat(again.exitCode()).as("exit status of a second init").isNotZero();
        assertThat(again.stdout()).isEmpty();
        assertThat(again.stderr()).contains("already initialised").contains(organizationId);

        try (KeyhavenProcess server =
                KeyhavenProcess.serve(List.of("--data-dir", data.toString(), "--port", "0"), Map.of())) {
            assertThat(server.organizationId()).isEqualTo(organizationId);
            // The announcement is printed line by line after the listener is up: wait for the line, don't sample.
            assertThat(server.awaitStdout(line -> line.contains("bundle signer:"), Duration.ofSeconds(10)))
                    .contains(signer);
            assertThat(dev.keyhaven.server.testing.Bundles.discoveredSigner(server.baseUrl()))
                    .isEqualTo(signer);
            assertThat(server.awaitStdout(line -> line.startsWith("auth proxy config id:"), Duration.ofSeconds(10)))
                    .isEqualTo("auth proxy config id: " + authProxyConfigId + " (organization " + organizationId + ")");
            assertThat(dev.keyhaven.server.testing.Bundles.discoveredKey(
                            server.baseUrl(), "/public/v1/discovery/otp-signer"))
                    .isEqualTo(ids.path("otpSignerPublicKey").asString());
            KeyhavenClient client = new KeyhavenClient(server.baseUrl(), operator, organizationId);
            KeyhavenClient.Whoami whoami = client.whoami();
            assertThat(whoami.userId()).isEqualTo(ids.path("userId").asString());
            assertThat(whoami.username()).isEqualTo("ops");
            assertThat(whoami.organizationName()).isEqualTo("Acme");
            JsonNode apiKey = client.getApiKeys(whoami.userId()).get(0);
            assertThat(apiKey.path("apiKeyId").asString())
                    .isEqualTo(ids.path("apiKeyId").asString());
            assertThat(apiKey.path("credential").path("publicKey").asString()).isEqualTo(operator.publicKey());

            Activity activity = client.createUsers(List.of(emailUser("second")));
            assertThat(activity.isCompleted()).isTrue();
            JsonNode createdAt = activity.raw().path("createdAt");
            assertThat(createdAt.isString())
                    .as("default createdAt is an RFC 3339 string: %s", createdAt)
                    .isTrue();
            assertThat(Instant.parse(createdAt.asString()))
                    .isBefore(Instant.now().plusSeconds(60));
        }
        assertThat(data.resolve("root-api-key.private"))
                .as("serve generates no key for an initialised store")
                .doesNotExist();
        assertThat(filesContaining(data, privateKey))
                .as("files in the data directory holding the private key")
                .isEmpty();
    }

    @Test
    void authProxyConfigListsCreatesAndChangesConfigurations() throws IOException {
        Path data = directory.resolve("proxy-data");
        ApiKeyStamper operator = ApiKeyStamper.generate(ApiKeyStamper.Curve.P256, new java.security.SecureRandom());
        Result init = KeyhavenProcess.run(
                List.of(
                        "init",
                        "--data-dir",
                        data.toString(),
                        "--organization-name",
                        "Acme",
                        "--user-name",
                        "ops",
                        "--api-public-key",
                        operator.publicKey()),
                Map.of());
        assertThat(init.exitCode()).as("stderr: %s", init.stderr()).isZero();
        JsonNode ids = onlyJsonObject(init.stdout());

        Result listed =
                KeyhavenProcess.run(List.of("auth-proxy-config", "--data-dir", data.toString(), "--list"), Map.of());
        assertThat(listed.exitCode()).as("stderr: %s", listed.stderr()).isZero();
        JsonNode original = onlyJsonObject(listed.stdout());
        assertThat(original.path("configId").asString())
                .isEqualTo(ids.path("authProxyConfigId").asString());
        assertThat(original.path("organizationId").asString())
                .isEqualTo(ids.path("organizationId").asString());
        assertThat(original.path("emailEnabled").asBoolean()).isTrue();
        assertThat(original.path("smsEnabled").asBoolean()).isFalse();

        Result changed = KeyhavenProcess.run(
                List.of(
                        "auth-proxy-config",
                        "--data-dir",
                        data.toString(),
                        "--config-id",
                        original.path("configId").asString(),
                        "--allowed-origins",
                        "https://app.example.com,https://admin.example.com",
                        "--sms-enabled",
                        "true",
                        "--otp-length",
                        "8"),
                Map.of());
        assertThat(changed.exitCode()).as("stderr: %s", changed.stderr()).isZero();
        JsonNode after = onlyJsonObject(changed.stdout());
        assertThat(after.path("smsEnabled").asBoolean()).isTrue();
        assertThat(after.path("otpLength").asInt()).isEqualTo(8);
        assertThat(after.path("allowedOrigins").toString()).contains("https://admin.example.com");

        Result created = KeyhavenProcess.run(
                List.of("auth-proxy-config", "--data-dir", data.toString(), "--app-name", "Second"), Map.of());
        assertThat(created.exitCode()).as("stderr: %s", created.stderr()).isZero();
        assertThat(onlyJsonObject(created.stdout()).path("configId").asString())
                .isNotEqualTo(original.path("configId").asString());

        Result bad = KeyhavenProcess.run(
                List.of(
                        "auth-proxy-config",
                        "--data-dir",
                        data.toString(),
                        "--config-id",
                        original.path("configId").asString(),
                        "--otp-length",
                        "12"),
                Map.of());
        assertThat(bad.exitCode()).isNotZero();
        assertThat(bad.stderr()).contains("otpLength");
        Result unknown = KeyhavenProcess.run(
                List.of("auth-proxy-config", "--data-dir", data.toString(), "--config-id", "nope"), Map.of());
        assertThat(unknown.exitCode()).isNotZero();
        assertThat(unknown.stderr()).contains("no auth proxy config");
    }

    @Test
    void serveRunsTheAuthProxyWithSmsCodesInAFileAndItsSignInLimit() throws Exception {
        Path data = directory.resolve("sms-file-data");
        ApiKeyStamper operator = ApiKeyStamper.generate(ApiKeyStamper.Curve.P256, new SecureRandom());
        Result init = KeyhavenProcess.run(
                List.of(
                        "init",
                        "--data-dir",
                        data.toString(),
                        "--organization-name",
                        "Acme",
                        "--user-name",
                        "ops",
                        "--api-public-key",
                        operator.publicKey()),
                Map.of());
        String configId =
                onlyJsonObject(init.stdout()).path("authProxyConfigId").asString();
        assertThat(KeyhavenProcess.run(
                                List.of(
                                        "auth-proxy-config",
                                        "--data-dir",
                                        data.toString(),
                                        "--config-id",
                                        configId,
                                        "--sms-enabled",
                                        "true"),
                                Map.of())
                        .exitCode())
                .isZero();
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        try (KeyhavenProcess server = KeyhavenProcess.serve(
                List.of(
                        "--data-dir",
                        data.toString(),
                        "--port",
                        "0",
                        "--auth-proxy-port",
                        Integer.toString(port),
                        "--sms-provider",
                        "file"),
                Map.of("KEYHAVEN_SIGN_IN_LIMIT_PER_CONTACT", "1"))) {
            server.awaitStdout(
                    line -> line.contains("auth proxy:       http://127.0.0.1:" + port), Duration.ofSeconds(10));
            HttpResponse<String> response = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/otp_init_v2"))
                                    .header("X-Auth-Proxy-Config-Id", configId)
                                    .POST(HttpRequest.BodyPublishers.ofString(
                                            "{\"otpType\":\"OTP_TYPE_SMS\",\"contact\":" + "\"+15557654321\"}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            assertThat(Files.readString(data.resolve("sms.log")))
                    .contains("+15557654321")
                    .containsPattern("code is [0-9]{6}\\.");
            // KEYHAVEN_SIGN_IN_LIMIT_PER_CONTACT=1: a second code to the same number in the window is refused.
            HttpResponse<String> again = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/otp_init_v2"))
                                    .header("X-Auth-Proxy-Config-Id", configId)
                                    .POST(HttpRequest.BodyPublishers.ofString(
                                            "{\"otpType\":\"OTP_TYPE_SMS\",\"contact\":" + "\"+15557654321\"}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(again.statusCode()).as(again.body()).isEqualTo(429);
            assertThat(again.headers().firstValue("Retry-After")).isPresent();
            HttpResponse<String> health = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                                    .GET()
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);
        }
    }

    @Test
    void serveRefusesBadSmsAndAuthProxyOptions() {
        Path data = directory.resolve("sms-data");
        Result pigeon = KeyhavenProcess.run(
                List.of("serve", "--data-dir", data.toString(), "--port", "0", "--sms-provider", "pigeon"), Map.of());
        assertThat(pigeon.exitCode()).isNotZero();
        assertThat(pigeon.stderr()).contains("--sms-provider");
        Result twilio = KeyhavenProcess.run(
                List.of("serve", "--data-dir", data.toString(), "--port", "0", "--sms-provider", "twilio"), Map.of());
        assertThat(twilio.exitCode()).isNotZero();
        assertThat(twilio.stderr()).contains("--twilio-account-sid");
        Result port = KeyhavenProcess.run(
                List.of("serve", "--data-dir", data.toString(), "--port", "0", "--auth-proxy-port", "70000"), Map.of());
        assertThat(port.exitCode()).isNotZero();
        assertThat(port.stderr()).contains("--auth-proxy-port");
    }

    @Test
    void serveNamesWhatSignsOnSecp256k1AndRefusesANamedLibraryItCannotUse() {
        try (KeyhavenProcess server = KeyhavenProcess.serve(
                List.of("--data-dir", directory.resolve("secp256k1-found").toString(), "--port", "0"), Map.of())) {
            // The same machine, so what this JVM found (NativeSecp256k1Test requires the library in CI).
            assertThat(server.stderr())
                    .as("the start-up log names what the dynamic linker found")
                    .contains("INFO  Keyhaven secp256k1 signatures by " + Custody.secp256k1Implementation() + " \n");
        }
        try (KeyhavenProcess server = KeyhavenProcess.serve(
                List.of("--data-dir", directory.resolve("secp256k1-none").toString(), "--port", "0"),
                Map.of("KEYHAVEN_SECP256K1_LIBRARY", "none"))) {
            assertThat(server.stderr())
                    .contains("INFO  Keyhaven secp256k1 signatures by BouncyCastle (KEYHAVEN_SECP256K1_LIBRARY=none)");
        }
        Result missing = KeyhavenProcess.run(
                List.of(
                        "serve",
                        "--data-dir",
                        directory.resolve("secp256k1-missing").toString(),
                        "--port",
                        "0"),
                Map.of("KEYHAVEN_SECP256K1_LIBRARY", "/nonexistent/libsecp256k1.so"));
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.stderr())
                .as("what stops Keyhaven at start is one line")
                .isEqualTo("keyhaven: KEYHAVEN_SECP256K1_LIBRARY=/nonexistent/libsecp256k1.so cannot sign: "
                        + "/nonexistent/libsecp256k1.so cannot be opened\n");
    }

    @Test
    void serveRefusesABadOauth2ProvidersFileNamingTheEntry() throws IOException {
        Path data = directory.resolve("oauth2-data");
        Path file = directory.resolve("oauth2-providers.json");
        Files.writeString(
                file,
                "[{\"provider\":\"OAUTH2_PROVIDER_X\",\"tokenEndpoint\":\"https://x.test/token\","
                        + "\"userinfoEndpoint\":\"https://x.test/me\"},{\"provider\":\"OAUTH2_PROVIDER_DISCORD\","
                        + "\"tokenEndpoint\":\"not a url\",\"userinfoEndpoint\":\"https://d.test/me\"}]");
        Result badUrl = KeyhavenProcess.run(
                List.of("serve", "--data-dir", data.toString(), "--port", "0", "--oauth2-providers", file.toString()),
                Map.of());
        assertThat(badUrl.exitCode()).isNotZero();
        assertThat(badUrl.stderr())
                .contains("--oauth2-providers")
                .contains("entry 1")
                .contains("tokenEndpoint");
        Files.writeString(file, "{\"provider\":\"OAUTH2_PROVIDER_X\"}");
        Result fromEnvironment = KeyhavenProcess.run(
                List.of("serve", "--data-dir", data.toString(), "--port", "0"),
                Map.of("KEYHAVEN_OAUTH2_PROVIDERS", file.toString()));
        assertThat(fromEnvironment.exitCode()).isNotZero();
        assertThat(fromEnvironment.stderr()).contains("--oauth2-providers").contains("must hold a JSON array");
        assertThat(data.resolve("keyhaven.db")).doesNotExist();
    }

    @Test
    void initRejectsABadKeyAndLeavesTheStoreEmpty() {
        Path data = directory.resolve("data");
        String p256 = ApiKeyStamper.generate(ApiKeyStamper.Curve.P256, RANDOM).publicKey();
        String ed25519 =
                ApiKeyStamper.generate(ApiKeyStamper.Curve.ED25519, RANDOM).publicKey();
        List<List<String>> badKeys = List.of(
                List.of("not hex", "API_KEY_CURVE_P256"),
                List.of("02abcdef", "API_KEY_CURVE_P256"),
                List.of("05" + p256.substring(2), "API_KEY_CURVE_P256"),
                List.of(ed25519, "API_KEY_CURVE_SECP256K1"),
                List.of(p256, "API_KEY_CURVE_ED25519"));
        for (List<String> bad : badKeys) {
            Result result = KeyhavenProcess.run(
                    List.of(
                            "init",
                            "--data-dir",
                            data.toString(),
                            "--organization-name",
                            "Acme",
                            "--user-name",
                            "ops",
                            "--api-public-key",
                            bad.get(0),
                            "--api-key-curve",
                            bad.get(1)),
                    Map.of());
            assertThat(result.exitCode()).as("exit status for %s", bad).isNotZero();
            assertThat(result.stdout()).as("stdout for %s", bad).isEmpty();
            assertThat(result.stderr())
                    .as("stderr for %s", bad)
                    .contains("--api-public-key")
                    .contains(bad.get(1))
                    .doesNotContain("Exception");
        }
        Result unknownCurve = KeyhavenProcess.run(
                List.of(
                        "init",
                        "--data-dir",
                        data.toString(),
                        "--organization-name",
                        "Acme",
                        "--user-name",
                        "ops",
                        "--api-public-key",
                        p256,
                        "--api-key-curve",
                        "API_KEY_CURVE_RSA"),
                Map.of());
        assertThat(unknownCurve.exitCode()).isNotZero();
        assertThat(unknownCurve.stderr()).contains("--api-key-curve").contains("API_KEY_CURVE_ED25519");

        Result good = KeyhavenProcess.run(
                List.of(
                        "init",
                        "--data-dir",
                        data.toString(),
                        "--organization-name",
                        "Acme",
                        "--user-name",
                        "ops",
                        "--api-public-key",
                        p256),
                Map.of());
        assertThat(good.exitCode())
                .as("init after the rejected attempts; stderr: %s", good.stderr())
                .isZero();
        assertThat(onlyJsonObject(good.stdout()).path("organizationId").asString())
                .isNotEmpty();
    }

    @Test
    void serveOnAnEmptyDataDirectoryCreatesTheRootAndPrintsACallThatWorks() throws IOException {
        Path data = directory.resolve("fresh");
        try (KeyhavenProcess server = KeyhavenProcess.serve(
                List.of("--data-dir", data.toString(), "--port", "0", "--activity-timestamps", "object"), Map.of())) {
            String organizationId = server.organizationId();
            // The announcement is one write, but its lines are read one by one: wait for its last line.
            server.awaitStdout(line -> line.contains("identity key:"), Duration.ofSeconds(30));
            Path publicKey = data.resolve("root-api-key.public");
            Path privateKey = data.resolve("root-api-key.private");
            assertThat(server.stdout())
                    .anyMatch(line -> line.contains(publicKey.toString()))
                    .anyMatch(line -> line.contains(privateKey.toString()));
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(publicKey)))
                    .isEqualTo("rw-------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(privateKey)))
                    .isEqualTo("rw-------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(data)))
                    .isEqualTo("rwx------");
            assertThat(Files.readString(data.resolve("root-organization-id")))
                    .as("the root organization's id file")
                    .isEqualTo(organizationId + "\n");
            assertThat(health(server.baseUrl())).isEqualTo(200);

            String example = server.stdout().stream()
                    .filter(line -> line.trim().startsWith("try it:"))
                    .findFirst()
                    .orElseThrow()
                    .trim()
                    .substring("try it:".length())
                    .trim();
            Result call = shell(example);
            assertThat(call.exitCode())
                    .as("the printed example call %s; stderr: %s", example, call.stderr())
                    .isZero();
            JsonNode whoami = onlyJsonObject(call.stdout());
            assertThat(whoami.path("organizationId").asString()).isEqualTo(organizationId);
            assertThat(whoami.path("username").asString()).isEqualTo("root");

            Result byEnvironment = KeyhavenProcess.run(
                    List.of("request"),
                    Map.of(
                            "KEYHAVEN_URL",
                            server.baseUrl(),
                            "KEYHAVEN_KEY",
                            data.resolve("root-api-key").toString(),
                            "KEYHAVEN_REQUEST_PATH",
                            "/public/v1/submit/create_users",
                            "KEYHAVEN_REQUEST_BODY",
                            "{\"type\":\"ACTIVITY_TYPE_CREATE_USERS_V4\",\"organizationId\":\""
                                    + organizationId + "\",\"parameters\":{\"users\":[{\"userName\":\"typed\","
                                    + "\"userEmail\":\"typed@example.com\",\"apiKeys\":[],\"authenticators\":[],"
                                    + "\"oauthProviders\":[],\"userTags\":[]}]}}"));
            assertThat(byEnvironment.exitCode())
                    .as("request configured by environment; stderr: %s", byEnvironment.stderr())
                    .isZero();
            JsonNode activity = onlyJsonObject(byEnvironment.stdout()).path("activity");
            assertThat(activity.path("status").asString()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
            assertThat(activity.path("createdAt").isObject())
                    .as("createdAt with --activity-timestamps object: %s", activity.path("createdAt"))
                    .isTrue();
            assertThat(activity.path("createdAt").path("seconds").asString()).matches("[0-9]+");
            assertThat(activity.path("createdAt").path("nanos").asString()).matches("[0-9]+");
        }
    }

    @Test
    void initAndServeTakeTheirOptionsFromTheEnvironment() {
        ApiKeyStamper operator = ApiKeyStamper.generate(ApiKeyStamper.Curve.ED25519, RANDOM);
        Path data = directory.resolve("by-environment");
        Result init = KeyhavenProcess.run(
                List.of("init"),
                Map.of(
                        "KEYHAVEN_DATA_DIR", data.toString(),
                        "KEYHAVEN_ORGANIZATION_NAME", "Env Corp",
                        "KEYHAVEN_USER_NAME", "env-operator",
                        "KEYHAVEN_API_PUBLIC_KEY", operator.publicKey(),
                        "KEYHAVEN_API_KEY_CURVE", "API_KEY_CURVE_ED25519"));
        assertThat(init.exitCode())
                .as("init configured by environment; stderr: %s", init.stderr())
                .isZero();
        String organizationId =
                onlyJsonObject(init.stdout()).path("organizationId").asString();

        int port = freePort();
        try (KeyhavenProcess server = KeyhavenProcess.serve(
                List.of(),
                Map.of(
                        "KEYHAVEN_DATA_DIR", data.toString(),
                        "KEYHAVEN_PORT", Integer.toString(port),
                        "KEYHAVEN_BIND", "127.0.0.1",
                        "KEYHAVEN_ACTIVITY_TIMESTAMPS", "object",
                        "KEYHAVEN_MAX_USERS_PER_ORGANIZATION", "2"))) {
            assertThat(server.port()).isEqualTo(port);
            assertThat(server.organizationId()).isEqualTo(organizationId);
            assertThat(health("http://127.0.0.1:" + port)).isEqualTo(200);

            KeyhavenClient client = new KeyhavenClient(server.baseUrl(), operator, organizationId);
            assertThat(client.whoami().organizationName()).isEqualTo("Env Corp");
            Activity second = client.createUsers(List.of(emailUser("second")));
            assertThat(second.raw().path("createdAt").isObject()).isTrue();
            assertThatThrownBy(() -> client.createUsers(List.of(emailUser("third"))))
                    .isInstanceOfSatisfying(
                            KeyhavenApiException.class,
                            e -> assertThat(assertError(e, ErrorCode.LIMIT_EXCEEDED, null)
                                            .serverMessage())
                                    .isEqualTo("organization has exceeded maximum users (2)"));
        }
    }

    @Test
    void initAndServeUsePostgreSqlGivenByUrl() {
        String databaseUrl = StoreKind.POSTGRES.freshDatabase(directory);
        try {
            ApiKeyStamper operator = ApiKeyStamper.generate(ApiKeyStamper.Curve.P256, RANDOM);
            Path data = directory.resolve("pg");
            Result init = KeyhavenProcess.run(
                    List.of(
                            "init",
                            "--data-dir",
                            data.toString(),
                            "--db-url",
                            databaseUrl,
                            "--organization-name",
                            "Acme",
                            "--user-name",
                            "ops",
                            "--api-public-key",
                            operator.publicKey()),
                    Map.of());
            assertThat(init.exitCode()).as("stderr: %s", init.stderr()).isZero();
            String organizationId =
                    onlyJsonObject(init.stdout()).path("organizationId").asString();

            try (KeyhavenProcess server = KeyhavenProcess.serve(
                    List.of("--port", "0"),
                    Map.of("KEYHAVEN_DATA_DIR", data.toString(), "KEYHAVEN_DB_URL", databaseUrl))) {
                assertThat(server.organizationId()).isEqualTo(organizationId);
                assertThat(new KeyhavenClient(server.baseUrl(), operator, organizationId)
                                .whoami()
                                .username())
                        .isEqualTo("ops");
            }
            assertThat(data.resolve("keyhaven.db"))
                    .as("no embedded database beside PostgreSQL")
                    .doesNotExist();
        } finally {
            StoreKind.POSTGRES.drop(databaseUrl);
        }
    }

    @Test
    void serveRefusesABadOidcIssuersFileNamingTheEntry() throws IOException {
        Path data = directory.resolve("oidc-data");
        Path issuers = directory.resolve("issuers.json");
        Files.writeString(
                issuers,
                "[{\"issuer\": \"https://idp.example\", \"jwksUri\": \"https://idp.example/jwks\", "
                        + "\"audiences\": []}]");
        Result noAudience = KeyhavenProcess.run(
                List.of("serve", "--data-dir", data.toString(), "--port", "0", "--oidc-issuers", issuers.toString()),
                Map.of());
        assertThat(noAudience.exitCode()).isNotZero();
        assertThat(noAudience.stderr()).contains("--oidc-issuers", "entry 0 (https://idp.example): audiences");
        Files.writeString(
                issuers,
                "[{\"issuer\": \"https://idp.example\", \"jwksFile\": \"missing.json\", "
                        + "\"audiences\": [\"app\"]}]");
        Result byEnvironment = KeyhavenProcess.run(
                List.of("serve", "--data-dir", data.toString(), "--port", "0"),
                Map.of("KEYHAVEN_OIDC_ISSUERS", issuers.toString()));
        assertThat(byEnvironment.exitCode()).isNotZero();
        assertThat(byEnvironment.stderr()).contains("OIDC issuer https://idp.example: jwksFile");
    }

    @Test
    void helpDocumentsEveryOptionWithItsEnvironmentVariable() {
        Map<String, Map<String, String>> expected = new LinkedHashMap<>();
        expected.put(
                "init",
                withStoreOptions(Map.of(
                        "--organization-name", "KEYHAVEN_ORGANIZATION_NAME",
                        "--user-name", "KEYHAVEN_USER_NAME",
                        "--api-public-key", "KEYHAVEN_API_PUBLIC_KEY",
                        "--api-key-curve", "KEYHAVEN_API_KEY_CURVE")));
        expected.put(
                "serve",
                withStoreOptions(Map.ofEntries(
                        Map.entry("--port", "KEYHAVEN_PORT"),
                        Map.entry("--bind", "KEYHAVEN_BIND"),
                        Map.entry("--db-pool-size", "KEYHAVEN_DB_POOL_SIZE"),
                        Map.entry("--activity-timestamps", "KEYHAVEN_ACTIVITY_TIMESTAMPS"),
                        Map.entry("--cors-origins", "KEYHAVEN_CORS_ORIGINS"),
                        Map.entry("--console", "KEYHAVEN_CONSOLE"),
                        Map.entry("--webauthn-origins", "KEYHAVEN_WEBAUTHN_ORIGINS"),
                        Map.entry("--max-body-bytes", "KEYHAVEN_MAX_BODY_BYTES"),
                        Map.entry("--max-connections", "KEYHAVEN_MAX_CONNECTIONS"),
                        Map.entry("--idle-timeout-seconds", "KEYHAVEN_IDLE_TIMEOUT_SECONDS"),
                        Map.entry("--header-timeout-seconds", "KEYHAVEN_HEADER_TIMEOUT_SECONDS"),
                        Map.entry("--body-timeout-seconds", "KEYHAVEN_BODY_TIMEOUT_SECONDS"),
                        Map.entry("--max-users-per-organization", "KEYHAVEN_MAX_USERS_PER_ORGANIZATION"),
                        Map.entry("--shutdown-grace-seconds", "KEYHAVEN_SHUTDOWN_GRACE_SECONDS"),
                        Map.entry("--smtp-host", "KEYHAVEN_SMTP_HOST"),
                        Map.entry("--smtp-port", "KEYHAVEN_SMTP_PORT"),
                        Map.entry("--smtp-security", "KEYHAVEN_SMTP_SECURITY"),
                        Map.entry("--smtp-username", "KEYHAVEN_SMTP_USERNAME"),
                        Map.entry("--smtp-password-file", "KEYHAVEN_SMTP_PASSWORD_FILE"),
                        Map.entry("--mail-from", "KEYHAVEN_MAIL_FROM"),
                        Map.entry("--email-templates-dir", "KEYHAVEN_EMAIL_TEMPLATES_DIR"),
                        Map.entry("--webhook-header-prefix", "KEYHAVEN_WEBHOOK_HEADER_PREFIX"),
                        Map.entry("--webhook-allow-insecure-urls", "KEYHAVEN_WEBHOOK_ALLOW_INSECURE_URLS"),
                        Map.entry("--webhook-max-attempts", "KEYHAVEN_WEBHOOK_MAX_ATTEMPTS"),
                        Map.entry("--webhook-first-retry-millis", "KEYHAVEN_WEBHOOK_FIRST_RETRY_MILLIS"),
                        Map.entry("--webhook-timeout-millis", "KEYHAVEN_WEBHOOK_TIMEOUT_MILLIS"),
                        Map.entry("--auth-proxy-port", "KEYHAVEN_AUTH_PROXY_PORT"),
                        Map.entry("--sign-in-limit-per-contact", "KEYHAVEN_SIGN_IN_LIMIT_PER_CONTACT"),
                        Map.entry("--sign-in-limit-per-address", "KEYHAVEN_SIGN_IN_LIMIT_PER_ADDRESS"),
                        Map.entry("--sign-in-limit-window-seconds", "KEYHAVEN_SIGN_IN_LIMIT_WINDOW_SECONDS"),
                        Map.entry("--sms-provider", "KEYHAVEN_SMS_PROVIDER"),
                        Map.entry("--twilio-base-url", "KEYHAVEN_TWILIO_BASE_URL"),
                        Map.entry("--twilio-account-sid", "KEYHAVEN_TWILIO_ACCOUNT_SID"),
                        Map.entry("--twilio-token-file", "KEYHAVEN_TWILIO_TOKEN_FILE"),
                        Map.entry("--sms-from", "KEYHAVEN_SMS_FROM"),
                        Map.entry("--captcha-verify-url", "KEYHAVEN_CAPTCHA_VERIFY_URL"),
                        Map.entry("--captcha-site-key", "KEYHAVEN_CAPTCHA_SITE_KEY"),
                        Map.entry("--captcha-secret-file", "KEYHAVEN_CAPTCHA_SECRET_FILE"),
                        Map.entry("--oauth2-providers", "KEYHAVEN_OAUTH2_PROVIDERS"),
                        Map.entry("--oidc-issuers", "KEYHAVEN_OIDC_ISSUERS"))));
        expected.put("signer-key", withStoreOptions(Map.of()));
        expected.put(
                "request",
                Map.ofEntries(
                        Map.entry("--url", "KEYHAVEN_URL"),
                        Map.entry("--key", "KEYHAVEN_KEY"),
                        Map.entry("--path", "KEYHAVEN_REQUEST_PATH"),
                        Map.entry("--body", "KEYHAVEN_REQUEST_BODY")));

        Result top = KeyhavenProcess.run(List.of("--help"), Map.of());
        assertThat(top.exitCode()).isZero();
        assertThat(top.stdout()).contains("init", "serve", "request", "environment variable");

        for (Map.Entry<String, Map<String, String>> command : expected.entrySet()) {
            Result help = KeyhavenProcess.run(List.of(command.getKey(), "--help"), Map.of());
            assertThat(help.exitCode()).isZero();
            Map<String, String> documented = optionDescriptions(help.stdout());
            documented.keySet().removeAll(List.of("--help", "--version"));
            assertThat(documented.keySet())
                    .as("options of %s", command.getKey())
                    .containsExactlyInAnyOrderElementsOf(command.getValue().keySet());
            command.getValue()
                    .forEach((option, variable) -> assertThat(documented.get(option))
                            .as("help of %s %s", command.getKey(), option)
                            .contains("env: " + variable));
        }
    }

    /** {@code options} and those of every command that opens the store: where it is and its KEK. */
    private static Map<String, String> withStoreOptions(Map<String, String> options) {
        Map<String, String> all = new LinkedHashMap<>(options);
        all.putAll(Map.of(
                "--data-dir", "KEYHAVEN_DATA_DIR",
                "--db-url", "KEYHAVEN_DB_URL",
                "--master-key-file", "KEYHAVEN_MASTER_KEY_FILE",
                "--kek", "KEYHAVEN_KEK",
                "--pkcs11-library", "KEYHAVEN_PKCS11_LIBRARY",
                "--pkcs11-token-label", "KEYHAVEN_PKCS11_TOKEN_LABEL",
                "--pkcs11-pin-file", "KEYHAVEN_PKCS11_PIN_FILE",
                "--pkcs11-key-label", "KEYHAVEN_PKCS11_KEY_LABEL"));
        return all;
    }

    private static UserParams emailUser(String name) {
        return new UserParams(name, name + "@example.com", null, List.of(), List.of(), List.of(), List.of());
    }

    /** Each option of a picocli usage message, with its description joined onto one line. */
    private static Map<String, String> optionDescriptions(String usage) {
        // An option starts near the left margin; a description's continuation is indented to its column, and may
        // itself start with an option's name where it wraps.
        Pattern optionLine = Pattern.compile("^\\s{1,10}(?:-\\w, )?(--[\\w-]+)(.*)$");
        Map<String, String> options = new LinkedHashMap<>();
        String current = null;
        boolean inOptions = false;
        for (String line : usage.split("\\R")) {
            Matcher m = optionLine.matcher(line);
            if (m.matches()) {
                inOptions = true;
                current = m.group(1);
                options.put(current, m.group(2).trim());
            } else if (inOptions && current != null && line.startsWith(" ")) {
                options.merge(current, line.trim(), (a, b) -> a + " " + b);
            } else if (inOptions) {
                current = null;
            }
        }
        return options;
    }

    /** Parses {@code stdout} as exactly one JSON object on one line, and nothing else. */
    private static JsonNode onlyJsonObject(String stdout) {
        assertThat(stdout.lines().toList()).as("stdout: %s", stdout).hasSize(1);
        JsonNode node = JSON.readTree(stdout);
        assertThat(node.isObject()).as("stdout: %s", stdout).isTrue();
        return node;
    }

    /** A random private key of {@code curve}, in hex. */
    private static String privateKeyHex(ApiKeyStamper.Curve curve) {
        byte[] scalar = new byte[32];
        BigInteger order = switch (curve) {
            case P256 -> EcCurve.P256.order();
            case SECP256K1 -> EcCurve.SECP256K1.order();
            case ED25519 -> BigInteger.ONE.shiftLeft(256);
        };
        do {
            RANDOM.nextBytes(scalar);
        } while (new BigInteger(1, scalar).signum() == 0 || new BigInteger(1, scalar).compareTo(order) >= 0);
        return HexFormat.of().formatHex(scalar);
    }

    /** The files under {@code root} whose bytes contain {@code hex}, as text or as the raw bytes it encodes. */
    private static List<Path> filesContaining(Path root, String hex) throws IOException {
        byte[] text = hex.getBytes(StandardCharsets.US_ASCII);
        byte[] raw = HexFormat.of().parseHex(hex);
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile)
                    .filter(file -> {
                        byte[] content = read(file);
                        return indexOf(content, text) >= 0 || indexOf(content, raw) >= 0;
                    })
                    .toList();
        }
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** Runs a command line through {@code /bin/sh}, as an operator pasting it would. */
    private static Result shell(String commandLine) throws IOException {
        Path out = Files.createTempFile(null, ".stdout");
        Path err = Files.createTempFile(null, ".stderr");
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", commandLine)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("KEYHAVEN_"));
        Process process = builder.start();
        try {
            if (!process.waitFor(90, TimeUnit.SECONDS)) {
                throw new IllegalStateException("still running after 90 s: " + commandLine);
            }
            return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            process.destroyForcibly();
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static int health(String baseUrl) {
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create(baseUrl + "/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200) {
                assertThat(response.body()).contains("\"ok\"");
            }
            return response.statusCode();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
