package dev.keyhaven.server.otp;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.util.Base64URL;
import com.sun.net.httpserver.HttpServer;
import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests;
import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SigningKey;
import dev.keyhaven.crypto.VerifyingKey;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.app.KeyhavenConfig;
import dev.keyhaven.server.app.OtpSettings;
import dev.keyhaven.server.authproxy.AuthProxyConfig;
import dev.keyhaven.server.custody.EcdsaSignatures;
import dev.keyhaven.server.mail.MailSettings;
import dev.keyhaven.server.testing.AttestedStamps;
import dev.keyhaven.server.testing.Bundles;
import dev.keyhaven.server.testing.Bundles.TargetKey;
import dev.keyhaven.server.testing.EmailedCodes;
import dev.keyhaven.server.testing.MutableClock;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.TestServer;
import jakarta.mail.Multipart;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * One-time passwords over real HTTP, real SMTP (GreenMail) and a fake Twilio on loopback: the activities
 * (init_otp V3, verify_otp V2 and unversioned, otp_login) and the auth proxy (otp_init_v2, otp_verify_v2,
 * otp_login_v2 and the older plain-code forms), with wrong, reused, expired and exhausted codes, rate limits, config
 * and Origin checks, and sessions that stamp until they expire.
 */
class OtpIT extends OnBothStores {
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final HexFormat HEX = HexFormat.of();
    private static final Pattern SMS_CODE = Pattern.compile("code is ([0-9A-Z]+)\\.");
    private static final String ORIGIN = "https://app.example.com";
    private static final int PER_CONTACT = 3;
    private static final int PER_ADDRESS = 12;

    private final MutableClock clock = MutableClock.ticking();
    private final List<Map<String, String>> smsSent = new CopyOnWriteArrayList<>();
    private GreenMail smtp;
    private Path templates;
    private HttpServer twilio;
    private KeyhavenClient client;
    private final HttpClient http = HttpClient.newHttpClient();

    @Override
    protected Clock clock() {
        return clock;
    }

    @Override
    protected KeyhavenConfig configure(KeyhavenConfig defaults) {
        smtp = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        smtp.start();
        Path token;
        try {
            twilio = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            twilio.createContext("/2010-04-01/Accounts/AC123/Messages.json", exchange -> {
                String auth = exchange.getRequestHeaders().getFirst("Authorization");
                String form = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                Map<String, String> fields = new LinkedHashMap<>();
                for (String pair : form.split("&")) {
                    String[] kv = pair.split("=", 2);
                    fields.put(
                            URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
                            URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
                }
                fields.put("authorization", auth);
                smsSent.add(fields);
                byte[] answer = "{\"sid\":\"SM1\"}".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(201, answer.length);
                exchange.getResponseBody().write(answer);
                exchange.close();
            });
            twilio.start();
            // In the server's data directory, which the server deletes when it stops.
            templates = Files.createDirectories(defaults.dataDirectory().resolve("otp-templates"));
            Files.writeString(
                    templates.resolve("acme-code.html"),
                    "<p>{{appName}} code for {{email}}: "
                            + "<b id=\"code\">{{otpCode}}</b> ({{expiresInMinutes}} min, {{support}})</p>");
            token = defaults.dataDirectory().resolve("twilio.token");
            Files.writeString(token, "secret-token\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        OtpSettings otp = OtpSettings.defaults()
                .withAuthProxyPort(OptionalInt.of(0))
                .withSms(new OtpSettings.Sms(
                        OtpSettings.SmsProvider.TWILIO,
                        "http://127.0.0.1:" + twilio.getAddress().getPort(),
                        "AC123",
                        Optional.of(token),
                        "+15550000000"))
                .withRateLimits(PER_CONTACT, PER_ADDRESS, Duration.ofMinutes(15));
        return defaults.withOtp(otp)
                .withMail(new MailSettings(
                        Optional.of(new MailSettings.Smtp(
                                "127.0.0.1",
                                smtp.getSmtp().getPort(),
                                MailSettings.Security.NONE,
                                Optional.empty(),
                                Optional.empty(),
                                Duration.ofSeconds(10))),
                        "keyhaven@test.example",
                        Optional.of(templates)));
    }

    @BeforeEach
    void freshWindow() throws Exception {
        // Past every rate-limit window of the earlier tests.
        clock.advance(Duration.ofMinutes(16));
        smtp.purgeEmailFromAllMailboxes();
        smsSent.clear();
        client = root.withClock(clock);
    }

    @AfterAll
    void stopFakes() {
        if (smtp != null) {
            smtp.stop();
        }
        if (twilio != null) {
            twilio.stop(0);
        }
    }

    // ---- helpers -------------------------------------------------------------------------------------------

    private static String uniqueEmail() {
        return "otp-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
    }

    private static String uniquePhone() {
        return "+1555" + (1_000_000 + (int) (Math.random() * 8_999_999));
    }

    private String newUser(String email, String phone) {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        return client.createUsers(List.of(new Requests.UserParams(
                        "user-" + UUID.randomUUID(),
                        email,
                        phone,
                        List.of(Requests.ApiKeyParams.of("k", key)),
                        List.of(),
                        List.of(),
                        List.of())))
                .result()
                .path("userIds")
                .get(0)
                .asString();
    }

    private String otpSigner() {
        return Bundles.discoveredKey(server.baseUrl(), "/public/v1/discovery/otp-signer");
    }

    private Activity initOtp(String email) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("otpType", "OTP_TYPE_EMAIL");
        p.put("contact", email);
        p.put("appName", "Acme");
        return client.submit("init_otp", "ACTIVITY_TYPE_INIT_OTP_V3", p, "initOtpResultV2");
    }

    private String emailedCode() throws Exception {
        return EmailedCodes.latest(smtp);
    }

    private Activity verifyOtp(String type, String otpId, String bundle, String code, TargetKey key) {
        String encrypted = Bundles.encryptOtpCode(bundle, otpSigner(), code, key.compressed());
        return client.submit(
                "verify_otp", type, Map.of("otpId", otpId, "encryptedOtpBundle", encrypted), "verifyOtpResult");
    }

    /** The client signature of a login: {@code key} (the token's) signs the login message for {@code session}. */
    private static Map<String, Object> loginParameters(String token, TargetKey key, TargetKey session) {
        JsonNode claims = claims(token);
        String message = "{\"login\":{\"publicKey\":\"" + session.compressed() + "\"},\"tokenId\":\""
                + claims.path("id").asString() + "\",\"type\":\"USAGE_TYPE_LOGIN\"}";
        String signature;
        try (SigningKey signer = SigningKey.ecdsa(EcCurve.P256, SecretBytes.copyOf(key.privateKey()))) {
            signature = HEX.formatHex(signer.sign(message.getBytes(StandardCharsets.UTF_8)));
        }
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("verificationToken", token);
        p.put("publicKey", session.compressed());
        p.put(
                "clientSignature",
                Map.of(
                        "publicKey",
                        key.compressed(),
                        "scheme",
                        "CLIENT_SIGNATURE_SCHEME_API_P256",
                        "message",
                        message,
                        "signature",
                        signature));
        return p;
    }

    private static JsonNode claims(String jwt) {
        return JSON.readTree(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]));
    }

    private static boolean jwtSignedBy(String jwt, String publicKey, boolean doubleHash) {
        int last = jwt.lastIndexOf('.');
        byte[] input = jwt.substring(0, last).getBytes(StandardCharsets.UTF_8);
        byte[] der = EcdsaSignatures.rawToDer(Base64.getUrlDecoder().decode(jwt.substring(last + 1)));
        return VerifyingKey.ecdsaSha256(EcCurve.P256, HEX.parseHex(publicKey))
                .verify(doubleHash ? Digests.sha256(input) : input, der);
    }

    private static boolean nimbusVerifies(String jwt, String uncompressedPublicKey) {
        byte[] point = HEX.parseHex(uncompressedPublicKey);
        try {
            return JWSObject.parse(jwt)
                    .verify(new ECDSAVerifier(new ECKey.Builder(
                                    Curve.P_256,
                                    Base64URL.encode(Arrays.copyOfRange(point, 1, 33)),
                                    Base64URL.encode(Arrays.copyOfRange(point, 33, 65)))
                            .build()));
        } catch (ParseException | JOSEException e) {
            throw new AssertionError("not a JWS verifiable with an ES256 key: " + e.getMessage(), e);
        }
    }

    private KeyhavenClient sessionClient(TargetKey session, String organizationId) {
        return client.withStamper(
                        ApiKeyStamper.fromPrivateKey(ApiKeyStamper.Curve.P256, HEX.formatHex(session.privateKey())))
                .forOrganization(organizationId);
    }

    private record ProxyResponse(int status, JsonNode body, Optional<String> retryAfter) {}

    private ProxyResponse proxy(
            String operation, Optional<String> configId, Optional<String> origin, Map<String, Object> body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.authProxyUrl() + "/v1/" + operation))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        configId.ifPresent(id -> request.header("X-Auth-Proxy-Config-ID", id));
        origin.ifPresent(o -> request.header("Origin", o));
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new ProxyResponse(
                    response.statusCode(),
                    JSON.readTree(response.body()),
                    response.headers().firstValue("Retry-After"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** verify_otp (V2) of a fresh code emailed to {@code email}: the verification token, bound to {@code key}. */
    private String verifiedToken(String email, TargetKey key) throws Exception {
        Activity init = initOtp(email);
        return verifyOtp(
                        "ACTIVITY_TYPE_VERIFY_OTP_V2",
                        init.result().path("otpId").asString(),
                        init.result().path("otpEncryptionTargetBundle").asString(),
                        emailedCode(),
                        key)
                .result()
                .path("verificationToken")
                .asString();
    }

    /** The auth proxy's otp_verify_v2 of {@code code} for the OTP {@code init} started. */
    private ProxyResponse proxyVerify(
            String config, Optional<String> origin, ProxyResponse init, String code, TargetKey key) {
        return proxy(
                "otp_verify_v2",
                Optional.of(config),
                origin,
                Map.of(
                        "otpId",
                        init.body().path("otpId").asString(),
                        "encryptedOtpBundle",
                        Bundles.encryptOtpCode(
                                init.body().path("otpEncryptionTargetBundle").asString(),
                                otpSigner(),
                                code,
                                key.compressed())));
    }

    /** A configuration of the root organization, made through the activity. */
    private String newConfig(Map<String, Object> settings) {
        Activity created = client.submit(
                "update_auth_proxy_config",
                "ACTIVITY_TYPE_UPDATE_AUTH_PROXY_CONFIG",
                settings,
                "updateAuthProxyConfigResult");
        assertThat(created.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        return created.result().path("configId").asString();
    }

    private String defaultConfig() {
        List<AuthProxyConfig> configs = server.keyhaven().authProxyConfigs();
        return configs.isEmpty()
                ? server.keyhaven().createDefaultAuthProxyConfig(server.organizationId())
                : configs.getFirst().id();
    }

    // ---- the activities ------------------------------------------------------------------------------------

    @Test
    void emailCodeVerifiesToATokenWhoseLoginOpensASessionThatStamps() throws Exception {
        String email = uniqueEmail();
        String userId = newUser(email, null);
        Activity init = initOtp(email);
        assertThat(init.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        String otpId = init.result().path("otpId").asString();
        String bundle = init.result().path("otpEncryptionTargetBundle").asString();
        assertThat(Bundles.verifiedData(bundle, otpSigner())
                        .path("targetPublic")
                        .asString())
                .hasSize(130);
        String code = emailedCode();
        assertThat(code).hasSize(9).matches("[0-9A-HJKMNP-TV-Z]+");

        TargetKey key = TargetKey.generate();
        // Crockford codes are case-insensitive.
        Activity verified = verifyOtp("ACTIVITY_TYPE_VERIFY_OTP_V2", otpId, bundle, code.toLowerCase(Locale.ROOT), key);
        String token = verified.result().path("verificationToken").asString();
        assertThat(jwtSignedBy(token, otpSigner(), false)).isTrue();
        assertThat(nimbusVerifies(token, otpSigner()))
                .as("Nimbus's ES256 verifier")
                .isTrue();
        assertThat(new String(Base64.getUrlDecoder().decode(token.split("\\.")[0]), StandardCharsets.UTF_8))
                .isEqualTo("{\"alg\":\"ES256\",\"typ\":\"JWT\"}");
        JsonNode claims = claims(token);
        assertThat(claims.path("verification_type").asString()).isEqualTo("OTP_TYPE_EMAIL");
        assertThat(claims.path("contact").asString()).isEqualTo(email);
        assertThat(claims.path("organization_id").asString()).isEqualTo(server.organizationId());
        assertThat(claims.path("public_key").asString()).isEqualTo(key.compressed());
        assertThat(Long.parseLong(claims.path("exp").asString()))
                .isCloseTo(clock.instant().toEpochMilli() + 3_600_000, org.assertj.core.data.Offset.offset(60_000L));

        TargetKey session = TargetKey.generate();
        Activity login = client.submit(
                "otp_login", "ACTIVITY_TYPE_OTP_LOGIN_V2", loginParameters(token, key, session), "otpLoginResult");
        String jwt = login.result().path("session").asString();
        assertThat(jwtSignedBy(
                        jwt, Bundles.discoveredKey(server.baseUrl(), "/public/v1/discovery/session-signer"), true))
                .isTrue();
        JsonNode sessionClaims = claims(jwt);
        assertThat(sessionClaims.path("user_id").asString()).isEqualTo(userId);
        assertThat(sessionClaims.path("public_key").asString()).isEqualTo(session.compressed());
        assertThat(sessionClaims.path("session_type").asString()).isEqualTo("SESSION_TYPE_READ_WRITE");
        assertThat(sessionClaims.path("exp").asLong())
                .isCloseTo(clock.instant().getEpochSecond() + 900, org.assertj.core.data.Offset.offset(60L));

        KeyhavenClient.Whoami whoami =
                sessionClient(session, server.organizationId()).whoami();
        assertThat(whoami.userId()).isEqualTo(userId);

        // The token is used up.
        KeyhavenApiException again = apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.verificationToken",
                () -> client.submit(
                        "otp_login",
                        "ACTIVITY_TYPE_OTP_LOGIN_V2",
                        loginParameters(token, key, TargetKey.generate()),
                        "otpLoginResult"));
        assertThat(again.serverMessage()).isEqualTo("bad request body: parameters.verificationToken was already used");
    }

    @Test
    void aParentApiUserRunsTheWholeFlowForASubOrganizationUser() throws Exception {
        String email = uniqueEmail();
        ApiKeyStamper subRoot = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String subId = client.createSubOrganization(
                        "otp-sub-" + UUID.randomUUID(),
                        List.of(new Requests.RootUserParams(
                                "sub user",
                                email,
                                null,
                                List.of(Requests.ApiKeyParams.of("k", subRoot)),
                                List.of(),
                                List.of())),
                        1)
                .result()
                .path("subOrganizationId")
                .asString();
        String userId =
                client.withStamper(subRoot).forOrganization(subId).whoami().userId();
        // sdk-server's sendOtp / verifyOtp / otpLogin: the parent's key, organizationId = the sub-organization.
        KeyhavenClient parentOnSub = client.forOrganization(subId);
        Activity init = parentOnSub.submit(
                "init_otp",
                "ACTIVITY_TYPE_INIT_OTP_V3",
                Map.of("otpType", "OTP_TYPE_EMAIL", "contact", email, "appName", "Acme"),
                "initOtpResultV2");
        assertThat(init.organizationId()).isEqualTo(subId);
        TargetKey key = TargetKey.generate();
        String encrypted = Bundles.encryptOtpCode(
                init.result().path("otpEncryptionTargetBundle").asString(),
                otpSigner(),
                emailedCode(),
                key.compressed());
        Activity verified = parentOnSub.submit(
                "verify_otp",
                "ACTIVITY_TYPE_VERIFY_OTP_V2",
                Map.of("otpId", init.result().path("otpId").asString(), "encryptedOtpBundle", encrypted),
                "verifyOtpResult");
        String token = verified.result().path("verificationToken").asString();
        assertThat(claims(token).path("organization_id").asString()).isEqualTo(subId);
        TargetKey session = TargetKey.generate();
        Activity login = parentOnSub.submit(
                "otp_login", "ACTIVITY_TYPE_OTP_LOGIN_V2", loginParameters(token, key, session), "otpLoginResult");
        assertThat(login.organizationId()).isEqualTo(subId);
        assertThat(sessionClient(session, subId).whoami().userId()).isEqualTo(userId);
    }

    @Test
    void theUnversionedTypesOfTheCoreClientAreAccepted() throws Exception {
        String email = uniqueEmail();
        newUser(email, null);
        Activity init = initOtp(email);
        TargetKey key = TargetKey.generate();
        Activity verified = verifyOtp(
                "ACTIVITY_TYPE_VERIFY_OTP",
                init.result().path("otpId").asString(),
                init.result().path("otpEncryptionTargetBundle").asString(),
                emailedCode(),
                key);
        assertThat(verified.type()).isEqualTo("ACTIVITY_TYPE_VERIFY_OTP");
        Activity login = client.submit(
                "otp_login",
                "ACTIVITY_TYPE_OTP_LOGIN",
                loginParameters(verified.result().path("verificationToken").asString(), key, TargetKey.generate()),
                "otpLoginResult");
        assertThat(login.result().path("session").asString()).contains(".");
    }

    @Test
    void aWrongCodeFailsAndCountsButTheRightOneStillWorksOnce() throws Exception {
        String email = uniqueEmail();
        Activity init = initOtp(email);
        String otpId = init.result().path("otpId").asString();
        String bundle = init.result().path("otpEncryptionTargetBundle").asString();
        String code = emailedCode();
        TargetKey key = TargetKey.generate();
        KeyhavenApiException wrong = apiError(
                ErrorCode.BAD_REQUEST,
                null,
                () -> verifyOtp("ACTIVITY_TYPE_VERIFY_OTP_V2", otpId, bundle, "000000000", key));
        assertThat(wrong.serverMessage()).isEqualTo("invalid OTP code (4 attempts left)");
        assertThat(verifyOtp("ACTIVITY_TYPE_VERIFY_OTP_V2", otpId, bundle, code, key)
                        .status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");
        KeyhavenApiException reused = apiError(
                ErrorCode.BAD_REQUEST, null, () -> verifyOtp("ACTIVITY_TYPE_VERIFY_OTP_V2", otpId, bundle, code, key));
        assertThat(reused.serverMessage()).isEqualTo("this OTP was already used; request a new code");
    }

    @Test
    void fiveWrongCodesKillTheCode() throws Exception {
        Activity init = initOtp(uniqueEmail());
        String otpId = init.result().path("otpId").asString();
        String bundle = init.result().path("otpEncryptionTargetBundle").asString();
        String code = emailedCode();
        TargetKey key = TargetKey.generate();
        for (int i = 0; i < OtpService.MAX_ATTEMPTS; i++) {
            assertThat(apiError(
                                    ErrorCode.BAD_REQUEST,
                                    null,
                                    () -> verifyOtp("ACTIVITY_TYPE_VERIFY_OTP_V2", otpId, bundle, "ZZZZZZZZZ", key))
                            .serverMessage())
                    .startsWith("invalid OTP code (");
        }
        KeyhavenApiException dead = apiError(
                ErrorCode.BAD_REQUEST, null, () -> verifyOtp("ACTIVITY_TYPE_VERIFY_OTP_V2", otpId, bundle, code, key));
        assertThat(dead.serverMessage()).isEqualTo("too many wrong codes for this OTP; request a new code");
    }

    @Test
    void anExpiredCodeIsRefused() throws Exception {
        Activity init = initOtp(uniqueEmail());
        String code = emailedCode();
        clock.advance(Duration.ofMinutes(5).plusSeconds(1));
        KeyhavenApiException expired = apiError(
                ErrorCode.BAD_REQUEST,
                null,
                () -> verifyOtp(
                        "ACTIVITY_TYPE_VERIFY_OTP_V2",
                        init.result().path("otpId").asString(),
                        init.result().path("otpEncryptionTargetBundle").asString(),
                        code,
                        TargetKey.generate()));
        assertThat(expired.serverMessage()).isEqualTo("this OTP has expired; request a new code");
    }

    @Test
    void initsPerContactAreRateLimited() {
        String email = uniqueEmail();
        for (int i = 0; i < PER_CONTACT; i++) {
            assertThat(initOtp(email).status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        }
        KeyhavenApiException limited =
                apiError(ErrorCode.RATE_LIMITED, null, () -> initOtp(email.toUpperCase(Locale.ROOT)));
        assertThat(limited.serverMessage()).startsWith("too many ").contains(" (retry after ");
        // Another contact is not affected.
        assertThat(initOtp(uniqueEmail()).status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
    }

    @Test
    void badParametersAreRefusedBeforeAnythingIsSent() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("otpType", "OTP_TYPE_EMAIL");
        p.put("contact", "not-an-email");
        p.put("appName", "Acme");
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.contact",
                () -> client.submit("init_otp", "ACTIVITY_TYPE_INIT_OTP_V3", p, "initOtpResultV2"));
        p.put("contact", uniqueEmail());
        p.put("otpLength", 5);
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.otpLength",
                () -> client.submit("init_otp", "ACTIVITY_TYPE_INIT_OTP_V3", p, "initOtpResultV2"));
        p.put("otpLength", 6);
        p.put("expirationSeconds", "601");
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.expirationSeconds",
                () -> client.submit("init_otp", "ACTIVITY_TYPE_INIT_OTP_V3", p, "initOtpResultV2"));
        assertThat(smtp.getReceivedMessages()).isEmpty();
        KeyhavenApiException unknown = apiError(() -> client.submit(
                "verify_otp",
                "ACTIVITY_TYPE_VERIFY_OTP_V2",
                Map.of("otpId", UUID.randomUUID().toString(), "encryptedOtpBundle", "{}"),
                "verifyOtpResult"));
        assertThat(unknown.httpStatus()).isEqualTo(404);
    }

    @Test
    void aLoginNeedsTheTokensKeyAndAUserWithTheContact() throws Exception {
        String email = uniqueEmail();
        TargetKey key = TargetKey.generate();
        String token = verifiedToken(email, key);
        // Signed by another key than the token's.
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.clientSignature.publicKey",
                () -> client.submit(
                        "otp_login",
                        "ACTIVITY_TYPE_OTP_LOGIN_V2",
                        loginParameters(token, TargetKey.generate(), TargetKey.generate()),
                        "otpLoginResult"));
        // A forged token.
        String[] parts = token.split("\\.");
        JsonNode claims = claims(token);
        String forgedClaims = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(JSON.writeValueAsBytes(
                        ((tools.jackson.databind.node.ObjectNode) claims).put("contact", "root@example.com")));
        Map<String, Object> forged = loginParameters(token, key, TargetKey.generate());
        forged.put("verificationToken", parts[0] + "." + forgedClaims + "." + parts[2]);
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.verificationToken",
                () -> client.submit("otp_login", "ACTIVITY_TYPE_OTP_LOGIN_V2", forged, "otpLoginResult"));
        // Nobody has this email (yet).
        KeyhavenApiException nobody = apiError(() -> client.submit(
                "otp_login",
                "ACTIVITY_TYPE_OTP_LOGIN_V2",
                loginParameters(token, key, TargetKey.generate()),
                "otpLoginResult"));
        assertThat(nobody.httpStatus()).isEqualTo(404);
        // The refusals did not use the token up.
        newUser(email, null);
        assertThat(client.submit(
                                "otp_login",
                                "ACTIVITY_TYPE_OTP_LOGIN_V2",
                                loginParameters(token, key, TargetKey.generate()),
                                "otpLoginResult")
                        .status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");
    }

    @Test
    void aSessionKeyStopsStampingWhenItExpires() throws Exception {
        String email = uniqueEmail();
        newUser(email, null);
        TargetKey key = TargetKey.generate();
        String token = verifiedToken(email, key);
        TargetKey session = TargetKey.generate();
        Map<String, Object> p = loginParameters(token, key, session);
        p.put("expirationSeconds", "60");
        client.submit("otp_login", "ACTIVITY_TYPE_OTP_LOGIN_V2", p, "otpLoginResult");
        KeyhavenClient sessionClient = sessionClient(session, server.organizationId());
        assertThat(sessionClient.whoami().organizationId()).isEqualTo(server.organizationId());
        clock.advance(Duration.ofSeconds(61));
        KeyhavenApiException expired = apiError(sessionClient::whoami);
        assertThat(expired.httpStatus()).isEqualTo(401);
    }

    // ---- the auth proxy ------------------------------------------------------------------------------------

    @Test
    void theProxyRunsTheEmailFlowFromAnAllowedOrigin() throws Exception {
        String email = uniqueEmail();
        String userId = newUser(email, null);
        String config = newConfig(Map.of("allowedOrigins", List.of(ORIGIN), "appName", "Proxy App"));
        ProxyResponse init = proxy(
                "otp_init_v2",
                Optional.of(config),
                Optional.of(ORIGIN),
                Map.of("otpType", "OTP_TYPE_EMAIL", "contact", email));
        assertThat(init.status()).isEqualTo(200);
        String code = emailedCode();
        assertThat(code).matches("[0-9]{6}");
        TargetKey key = TargetKey.generate();
        ProxyResponse verify = proxyVerify(config, Optional.of(ORIGIN), init, code, key);
        assertThat(verify.status()).isEqualTo(200);
        TargetKey session = TargetKey.generate();
        ProxyResponse login = proxy(
                "otp_login_v2",
                Optional.of(config),
                Optional.of(ORIGIN),
                loginParameters(verify.body().path("verificationToken").asString(), key, session));
        assertThat(login.status()).isEqualTo(200);
        assertThat(claims(login.body().path("session").asString())
                        .path("user_id")
                        .asString())
                .isEqualTo(userId);
        assertThat(sessionClient(session, server.organizationId()).whoami().userId())
                .isEqualTo(userId);
    }

    @Test
    void theProxyRunsTheSmsFlowThroughTheProvider() {
        String phone = uniquePhone();
        String userId = newUser(null, phone);
        String config = newConfig(Map.of("smsEnabled", true, "emailEnabled", false, "otpLength", 8));
        ProxyResponse init = proxy(
                "otp_init_v2",
                Optional.of(config),
                Optional.empty(),
                Map.of("otpType", "OTP_TYPE_SMS", "contact", phone));
        assertThat(init.status()).isEqualTo(200);
        assertThat(smsSent).hasSize(1);
        Map<String, String> sms = smsSent.getFirst();
        assertThat(sms.get("To")).isEqualTo(phone);
        assertThat(sms.get("From")).isEqualTo("+15550000000");
        assertThat(sms.get("authorization"))
                .isEqualTo("Basic "
                        + Base64.getEncoder().encodeToString("AC123:secret-token".getBytes(StandardCharsets.UTF_8)));
        Matcher m = SMS_CODE.matcher(sms.get("Body"));
        assertThat(m.find()).isTrue();
        assertThat(m.group(1)).hasSize(8);
        // The older plain-code form, bound to a key.
        TargetKey key = TargetKey.generate();
        ProxyResponse verify = proxy(
                "otp_verify",
                Optional.of(config),
                Optional.empty(),
                Map.of(
                        "otpId",
                        init.body().path("otpId").asString(),
                        "otpCode",
                        m.group(1),
                        "publicKey",
                        key.compressed()));
        assertThat(verify.status()).isEqualTo(200);
        assertThat(claims(verify.body().path("verificationToken").asString())
                        .path("verification_type")
                        .asString())
                .isEqualTo("OTP_TYPE_SMS");
        ProxyResponse login = proxy(
                "otp_login_v2",
                Optional.of(config),
                Optional.empty(),
                loginParameters(verify.body().path("verificationToken").asString(), key, TargetKey.generate()));
        assertThat(login.status()).isEqualTo(200);
        assertThat(claims(login.body().path("session").asString())
                        .path("user_id")
                        .asString())
                .isEqualTo(userId);
        // The same token attests its key in X-Stamp-Attested: the caller is the user with the proven phone number.
        assertThat(client.withStamper(AttestedStamps.attested(
                                key,
                                verify.body().path("verificationToken").asString(),
                                AttestedStamps.VERIFICATION_TOKEN))
                        .whoami()
                        .userId())
                .isEqualTo(userId);
        // Email is off in this config.
        ProxyResponse email = proxy(
                "otp_init_v2",
                Optional.of(config),
                Optional.empty(),
                Map.of("otpType", "OTP_TYPE_EMAIL", "contact", uniqueEmail()));
        assertThat(email.status()).isEqualTo(400);
        assertThat(email.body().path("message").asString()).contains("not enabled");
    }

    @Test
    void theProxyChecksTheConfigTheOriginAndTheChannel() {
        String config = newConfig(Map.of("allowedOrigins", List.of(ORIGIN)));
        Map<String, Object> body = Map.of("otpType", "OTP_TYPE_EMAIL", "contact", uniqueEmail());
        ProxyResponse missing = proxy("otp_init_v2", Optional.empty(), Optional.of(ORIGIN), body);
        assertThat(missing.status()).isEqualTo(400);
        assertThat(missing.body().path("message").asString()).contains("X-Auth-Proxy-Config-Id");
        assertThat(missing.body().path("turnkeyErrorCode").asString()).isNotEmpty();
        ProxyResponse unknown =
                proxy("otp_init_v2", Optional.of(UUID.randomUUID().toString()), Optional.of(ORIGIN), body);
        assertThat(unknown.status()).isEqualTo(404);
        ProxyResponse origin = proxy("otp_init_v2", Optional.of(config), Optional.of("https://evil.example"), body);
        assertThat(origin.status()).isEqualTo(403);
        ProxyResponse sms = proxy(
                "otp_init_v2",
                Optional.of(config),
                Optional.of(ORIGIN),
                Map.of("otpType", "OTP_TYPE_SMS", "contact", uniquePhone()));
        assertThat(sms.status()).isEqualTo(400);
        assertThat(smsSent).isEmpty();
        assertThat(smtp.getReceivedMessages()).isEmpty();
    }

    @Test
    void theProxyAnswersTheSameForUnknownContactsAndLimitsByAddress() {
        String config = defaultConfig();
        String known = uniqueEmail();
        newUser(known, null);
        ProxyResponse forKnown = proxy(
                "otp_init_v2",
                Optional.of(config),
                Optional.empty(),
                Map.of("otpType", "OTP_TYPE_EMAIL", "contact", known));
        ProxyResponse forUnknown = proxy(
                "otp_init_v2",
                Optional.of(config),
                Optional.empty(),
                Map.of("otpType", "OTP_TYPE_EMAIL", "contact", uniqueEmail()));
        assertThat(forKnown.status()).isEqualTo(forUnknown.status()).isEqualTo(200);
        assertThat(forKnown.body().propertyNames())
                .containsExactlyElementsOf(forUnknown.body().propertyNames());
        List<Integer> statuses = new ArrayList<>(List.of(200, 200));
        ProxyResponse last = null;
        for (int i = 2; i <= PER_ADDRESS; i++) {
            last = proxy(
                    "otp_init_v2",
                    Optional.of(config),
                    Optional.empty(),
                    Map.of("otpType", "OTP_TYPE_EMAIL", "contact", uniqueEmail()));
            statuses.add(last.status());
        }
        assertThat(statuses.subList(0, PER_ADDRESS)).containsOnly(200);
        assertThat(last.status()).isEqualTo(429);
        assertThat(last.retryAfter()).isPresent();
        assertThat(Long.parseLong(last.retryAfter().get())).isBetween(1L, 15 * 60L);
    }

    @Test
    void theProxyRefusesAWrongCodeAndALoginWithoutAccount() throws Exception {
        String config = defaultConfig();
        String email = uniqueEmail();
        ProxyResponse init = proxy(
                "otp_init_v2",
                Optional.of(config),
                Optional.empty(),
                Map.of("otpType", "OTP_TYPE_EMAIL", "contact", email));
        String code = emailedCode();
        TargetKey key = TargetKey.generate();
        ProxyResponse wrong =
                proxyVerify(config, Optional.empty(), init, code.equals("000000") ? "111111" : "000000", key);
        assertThat(wrong.status()).isEqualTo(400);
        ProxyResponse right = proxyVerify(config, Optional.empty(), init, code, key);
        assertThat(right.status()).isEqualTo(200);
        ProxyResponse login = proxy(
                "otp_login_v2",
                Optional.of(config),
                Optional.empty(),
                loginParameters(right.body().path("verificationToken").asString(), key, TargetKey.generate()));
        assertThat(login.status()).isEqualTo(404);
        assertThat(login.body().path("message").asString()).contains("does not allow sign-up");
    }

    @Test
    void theOlderPlainCodeFormsLogInWithAnUnboundToken() throws Exception {
        String email = uniqueEmail();
        String userId = newUser(email, null);
        String config = defaultConfig();
        ProxyResponse init = proxy(
                "otp_init",
                Optional.of(config),
                Optional.empty(),
                Map.of("otpType", "OTP_TYPE_EMAIL", "contact", email));
        assertThat(init.status()).isEqualTo(200);
        ProxyResponse verify = proxy(
                "otp_verify",
                Optional.of(config),
                Optional.empty(),
                Map.of("otpId", init.body().path("otpId").asString(), "otpCode", emailedCode()));
        assertThat(verify.status()).isEqualTo(200);
        String token = verify.body().path("verificationToken").asString();
        assertThat(claims(token).path("public_key").asString()).isEmpty();
        TargetKey session = TargetKey.generate();
        ProxyResponse login = proxy(
                "otp_login",
                Optional.of(config),
                Optional.empty(),
                Map.of("verificationToken", token, "publicKey", session.compressed()));
        assertThat(login.status()).as(login.body().toString()).isEqualTo(200);
        assertThat(sessionClient(session, server.organizationId()).whoami().userId())
                .isEqualTo(userId);
    }

    @Test
    void theProxyAnswersPreflightsForBrowsers() throws Exception {
        HttpResponse<String> preflight = http.send(
                HttpRequest.newBuilder(URI.create(server.authProxyUrl() + "/v1/otp_init_v2"))
                        .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                        .header("Origin", ORIGIN)
                        .header("Access-Control-Request-Method", "POST")
                        .header("Access-Control-Request-Headers", "content-type,x-auth-proxy-config-id")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(preflight.statusCode()).isEqualTo(204);
        assertThat(preflight.headers().firstValue("Access-Control-Allow-Origin"))
                .contains(ORIGIN);
        assertThat(preflight
                        .headers()
                        .firstValue("Access-Control-Allow-Headers")
                        .orElseThrow())
                .contains("X-Auth-Proxy-Config-Id");
        HttpResponse<String> health = http.send(
                HttpRequest.newBuilder(URI.create(server.authProxyUrl() + "/health"))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(health.statusCode()).isEqualTo(200);
        ProxyResponse unknownPath = proxy("no_such_endpoint", Optional.of(defaultConfig()), Optional.empty(), Map.of());
        assertThat(unknownPath.status()).isEqualTo(404);
    }

    @Test
    void aNamedTemplateShapesTheCodeEmail() throws Exception {
        String email = uniqueEmail();
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("otpType", "OTP_TYPE_EMAIL");
        p.put("contact", email);
        p.put("appName", "Acme");
        p.put("otpLength", 6);
        p.put("alphanumeric", false);
        p.put(
                "emailCustomization",
                Map.of("templateId", "acme-code", "templateVariables", "{\"support\":\"help@acme.example\"}"));
        p.put("sendFromEmailAddress", "codes@acme.example");
        client.submit("init_otp", "ACTIVITY_TYPE_INIT_OTP_V3", p, "initOtpResultV2");
        assertThat(smtp.waitForIncomingEmail(5_000, 1)).isTrue();
        MimeMessage message = smtp.getReceivedMessages()[0];
        assertThat(message.getSubject()).isEqualTo("Acme: your sign-in code");
        assertThat(message.getFrom()[0].toString()).contains("codes@acme.example");
        String html = null;
        Multipart multipart = (Multipart) message.getContent();
        for (int i = 0; i < multipart.getCount(); i++) {
            if (multipart.getBodyPart(i).isMimeType("text/html")) {
                html = (String) multipart.getBodyPart(i).getContent();
            }
        }
        assertThat(html)
                .matches("(?s).*Acme code for " + Pattern.quote(email)
                        + ": <b id=\"code\">[0-9]{6}</b> \\(5 min, help@acme.example\\).*");
        // A template that does not exist is a 400 naming the field, and nothing is sent.
        p.put("emailCustomization", Map.of("templateId", "nope"));
        smtp.purgeEmailFromAllMailboxes();
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.emailCustomization.templateId",
                () -> client.submit("init_otp", "ACTIVITY_TYPE_INIT_OTP_V3", p, "initOtpResultV2"));
        assertThat(smtp.getReceivedMessages()).isEmpty();
    }

    @Test
    void aConfigWithSignUpCreatesASubOrganizationForANewContact() throws Exception {
        String config = newConfig(Map.of("signupEnabled", true));
        String email = uniqueEmail();
        ProxyResponse init = proxy(
                "otp_init_v2",
                Optional.of(config),
                Optional.empty(),
                Map.of("otpType", "OTP_TYPE_EMAIL", "contact", email));
        TargetKey key = TargetKey.generate();
        ProxyResponse verify = proxyVerify(config, Optional.empty(), init, emailedCode(), key);
        TargetKey session = TargetKey.generate();
        ProxyResponse login = proxy(
                "otp_login_v2",
                Optional.of(config),
                Optional.empty(),
                loginParameters(verify.body().path("verificationToken").asString(), key, session));
        assertThat(login.status()).isEqualTo(200);
        JsonNode claims = claims(login.body().path("session").asString());
        String subOrganization = claims.path("organization_id").asString();
        assertThat(subOrganization).isNotEqualTo(server.organizationId());
        KeyhavenClient.Whoami whoami = sessionClient(session, subOrganization).whoami();
        assertThat(whoami.userId()).isEqualTo(claims.path("user_id").asString());
        assertThat(sessionClient(session, subOrganization)
                        .query("get_user", Map.of("userId", whoami.userId()))
                        .path("user")
                        .path("userEmail")
                        .asString())
                .isEqualTo(email);
        // A sub-organization of the config's organization, which the parent's root user can read.
        assertThat(root.query("get_organization", Map.of("organizationId", subOrganization))
                        .path("organizationData")
                        .path("organizationId")
                        .asString())
                .isEqualTo(subOrganization);
    }

    // ---- older versions: init_otp V1/V2 and verify_otp V1 with the code in plain text -----------------------

    private Activity initOtpPlain(String type, Map<String, Object> parameters) {
        return client.submit("init_otp", type, parameters, "initOtpResult");
    }

    private Activity verifyOtpPlain(String otpId, String code, Optional<String> publicKey) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("otpId", otpId);
        p.put("otpCode", code);
        publicKey.ifPresent(k -> p.put("publicKey", k));
        return client.submit("verify_otp", "ACTIVITY_TYPE_VERIFY_OTP", p, "verifyOtpResult");
    }

    @Test
    void initOtpV1SendsAPlainCodeThatVerifyOtpV1ChecksAndItsUnboundTokenLogsIn() throws Exception {
        String email = uniqueEmail();
        String userId = newUser(email, null);
        // V1 has no appName: the email's comes from emailCustomization.
        Activity init = initOtpPlain(
                "ACTIVITY_TYPE_INIT_OTP",
                Map.of(
                        "otpType",
                        "OTP_TYPE_EMAIL",
                        "contact",
                        email,
                        "emailCustomization",
                        Map.of("appName", "Acme Old")));
        // initOtpResult: the id only, no encryption target.
        assertThat(init.result().propertyNames()).containsExactly("otpId");
        String code = emailedCode();
        assertThat(smtp.getReceivedMessages()[0].getSubject()).isEqualTo("Acme Old: your sign-in code");
        Activity verified = verifyOtpPlain(init.result().path("otpId").asString(), code, Optional.empty());
        assertThat(verified.raw().path("intent").propertyNames()).containsExactly("verifyOtpIntent");
        String token = verified.result().path("verificationToken").asString();
        assertThat(claims(token).path("public_key").asString()).isEmpty();
        // A token bound to no key: otp_login V2 always wants the client signature, which this token cannot give...
        TargetKey session = TargetKey.generate();
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.clientSignature",
                () -> client.submit(
                        "otp_login",
                        "ACTIVITY_TYPE_OTP_LOGIN_V2",
                        Map.of("verificationToken", token, "publicKey", session.compressed()),
                        "otpLoginResult"));
        // ...and the unversioned type, which sdk-server 4 and 5 send after this verification, logs in without one.
        Activity login = client.submit(
                "otp_login",
                "ACTIVITY_TYPE_OTP_LOGIN",
                Map.of("verificationToken", token, "publicKey", session.compressed()),
                "otpLoginResult");
        assertThat(login.result().path("session").asString()).contains(".");
        assertThat(sessionClient(session, server.organizationId()).whoami().userId())
                .isEqualTo(userId);
    }

    @Test
    void initOtpV2TakesAppNameAndVerifyOtpV1BindsTheTokenToTheGivenKey() throws Exception {
        String email = uniqueEmail();
        newUser(email, null);
        Activity init = initOtpPlain(
                "ACTIVITY_TYPE_INIT_OTP_V2",
                Map.of("otpType", "OTP_TYPE_EMAIL", "contact", email, "appName", "Acme Two", "otpLength", 6));
        assertThat(init.result().propertyNames()).containsExactly("otpId");
        String code = emailedCode();
        assertThat(smtp.getReceivedMessages()[0].getSubject()).isEqualTo("Acme Two: your sign-in code");
        assertThat(code).hasSize(6);
        TargetKey key = TargetKey.generate();
        String token = verifyOtpPlain(init.result().path("otpId").asString(), code, Optional.of(key.compressed()))
                .result()
                .path("verificationToken")
                .asString();
        assertThat(claims(token).path("public_key").asString()).isEqualTo(key.compressed());
        // Bound to a key: its login needs the client signature, as verify_otp V2's tokens do, even unversioned.
        KeyhavenApiException unsigned = apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.clientSignature",
                () -> client.submit(
                        "otp_login",
                        "ACTIVITY_TYPE_OTP_LOGIN",
                        Map.of(
                                "verificationToken",
                                token,
                                "publicKey",
                                TargetKey.generate().compressed()),
                        "otpLoginResult"));
        assertThat(unsigned.serverMessage()).contains("is required: the verification token is bound to a key");
        assertThat(client.submit(
                                "otp_login",
                                "ACTIVITY_TYPE_OTP_LOGIN_V2",
                                loginParameters(token, key, TargetKey.generate()),
                                "otpLoginResult")
                        .result()
                        .path("session")
                        .asString())
                .contains(".");
    }

    @Test
    void thePlainAndTheEncryptedOtpFlowsDoNotMix() throws Exception {
        String email = uniqueEmail();
        newUser(email, null);
        // A plain-code OTP is refused by the encrypted verification (which it has no target for anyway)...
        Activity plain = initOtpPlain(
                "ACTIVITY_TYPE_INIT_OTP_V2", Map.of("otpType", "OTP_TYPE_EMAIL", "contact", email, "appName", "A"));
        String plainId = plain.result().path("otpId").asString();
        String plainCode = emailedCode();
        Activity newer = initOtp(email);
        String newerId = newer.result().path("otpId").asString();
        assertThat(smtp.waitForIncomingEmail(5_000, 2)).isTrue();
        String newerCode = emailedCode();
        KeyhavenApiException encrypted = apiError(
                ErrorCode.BAD_REQUEST,
                null,
                () -> verifyOtp(
                        "ACTIVITY_TYPE_VERIFY_OTP_V2",
                        plainId,
                        newer.result().path("otpEncryptionTargetBundle").asString(),
                        plainCode,
                        TargetKey.generate()));
        assertThat(encrypted.serverMessage())
                .isEqualTo("this OTP was sent by init_otp V1/V2, so only verify_otp with otpCode checks its code "
                        + "(the older and newer OTP sign-ins do not mix)");
        // ...and an OTP of init_otp V3 by the plain-code one, with its right code.
        KeyhavenApiException inPlain =
                apiError(ErrorCode.BAD_REQUEST, null, () -> verifyOtpPlain(newerId, newerCode, Optional.empty()));
        assertThat(inPlain.serverMessage())
                .isEqualTo("this OTP was sent by init_otp, so only verify_otp checks its code "
                        + "(the older and newer OTP sign-ins do not mix)");
        // Neither refusal spent the code or counted against it.
        assertThat(verifyOtpPlain(plainId, plainCode, Optional.empty()).status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(verifyOtp(
                                "ACTIVITY_TYPE_VERIFY_OTP_V2",
                                newerId,
                                newer.result().path("otpEncryptionTargetBundle").asString(),
                                newerCode,
                                TargetKey.generate())
                        .status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");
    }

    @Test
    void verifyOtpV1IsToldByItsFieldsAndRefusesBothOrNeither() throws Exception {
        Activity plain =
                initOtpPlain("ACTIVITY_TYPE_INIT_OTP", Map.of("otpType", "OTP_TYPE_EMAIL", "contact", uniqueEmail()));
        String otpId = plain.result().path("otpId").asString();
        String code = emailedCode();
        KeyhavenApiException both = apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.otpCode",
                () -> client.submit(
                        "verify_otp",
                        "ACTIVITY_TYPE_VERIFY_OTP",
                        Map.of("otpId", otpId, "otpCode", code, "encryptedOtpBundle", "00"),
                        "verifyOtpResult"));
        assertThat(both.serverMessage()).contains("must not be sent with encryptedOtpBundle");
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.otpCode",
                () -> client.submit(
                        "verify_otp", "ACTIVITY_TYPE_VERIFY_OTP", Map.of("otpId", otpId), "verifyOtpResult"));
        // V2 has no plain code.
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.otpCode",
                () -> client.submit(
                        "verify_otp",
                        "ACTIVITY_TYPE_VERIFY_OTP_V2",
                        Map.of("otpId", otpId, "otpCode", code),
                        "verifyOtpResult"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.publicKey",
                () -> verifyOtpPlain(otpId, code, Optional.of("not-a-key")));
        // A wrong plain code counts, as an encrypted one does.
        KeyhavenApiException wrong =
                apiError(ErrorCode.BAD_REQUEST, null, () -> verifyOtpPlain(otpId, "000000000", Optional.empty()));
        assertThat(wrong.serverMessage()).isEqualTo("invalid OTP code (4 attempts left)");
        // init_otp V1 without a contact, and V2 without its appName.
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.contact",
                () -> initOtpPlain("ACTIVITY_TYPE_INIT_OTP", Map.of("otpType", "OTP_TYPE_EMAIL")));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.appName",
                () -> initOtpPlain(
                        "ACTIVITY_TYPE_INIT_OTP_V2", Map.of("otpType", "OTP_TYPE_EMAIL", "contact", uniqueEmail())));
    }
}
