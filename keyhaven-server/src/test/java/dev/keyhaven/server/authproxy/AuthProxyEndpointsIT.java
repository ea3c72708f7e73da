package dev.keyhaven.server.authproxy;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.sun.net.httpserver.HttpServer;
import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.Requests;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.app.KeyhavenConfig;
import dev.keyhaven.server.app.OtpSettings;
import dev.keyhaven.server.mail.MailSettings;
import dev.keyhaven.server.testing.Bundles;
import dev.keyhaven.server.testing.Bundles.TargetKey;
import dev.keyhaven.server.testing.EmailedCodes;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.TestServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The auth proxy's endpoints for the wallet kit and the account lookup, over real HTTP on both stores:
 * {@code wallet_kit_config} and {@code wallet_kit_client_params} (posted without a body, as the kit does) report the
 * configuration's settings; {@code account} looks up every filter type and wants proof of a contact; captcha tokens
 * are checked against a local Turnstile-compatible stub when a configuration enables them; error field paths name
 * the flat body's fields. Every refusal is asserted by its code and the field it blames.
 */
class AuthProxyEndpointsIT extends OnBothStores {
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final String ORIGIN = "https://wallet.example.com";
    private static final String SITE_KEY = "0x4AAAAAAA-site-key";
    private static final String SECRET = "captcha-secret-never-logged";
    private static final String GOOD_TOKEN = "good-captcha-token";

    private final HttpClient http = HttpClient.newHttpClient();
    private final List<Map<String, String>> captchaChecks = new CopyOnWriteArrayList<>();
    private GreenMail smtp;
    private HttpServer captcha;

    @Override
    protected KeyhavenConfig configure(KeyhavenConfig defaults) {
        smtp = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        smtp.start();
        try {
            captcha = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        captcha.createContext("/turnstile/v0/siteverify", exchange -> {
            Map<String, String> form = new LinkedHashMap<>();
            for (String pair :
                    new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8).split("&")) {
                String[] kv = pair.split("=", 2);
                form.put(
                        URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
                        kv.length > 1 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
            }
            captchaChecks.add(form);
            boolean success = SECRET.equals(form.get("secret")) && GOOD_TOKEN.equals(form.get("response"));
            byte[] answer = ("{\"success\":" + success + ",\"error-codes\":[]}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        captcha.start();
        OtpSettings otp = OtpSettings.defaults()
                .withAuthProxyPort(OptionalInt.of(0))
                .withRateLimits(100, 1000, Duration.ofMinutes(15))
                .withCaptcha(Optional.of(new OtpSettings.Captcha(
                        URI.create("http://127.0.0.1:" + captcha.getAddress().getPort() + "/turnstile/v0/siteverify"),
                        SITE_KEY,
                        SECRET)));
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
                        Optional.empty()));
    }

    @BeforeEach
    void freshMailbox() throws Exception {
        smtp.purgeEmailFromAllMailboxes();
        captchaChecks.clear();
    }

    @AfterAll
    void stopFakes() {
        if (smtp != null) {
            smtp.stop();
        }
        if (captcha != null) {
            captcha.stop(0);
        }
    }

    // ---- helpers -------------------------------------------------------------------------------------------

    private record ProxyResponse(int status, JsonNode body, String text) {
        /** Asserts the wire error: status, gRPC code, turnkeyErrorCode, and the field blamed (null: none). */
        ProxyResponse isError(ErrorCode code, String field) {
            List<JsonNode> violations = new ArrayList<>();
            body.path("details").forEach(d -> d.path("fieldViolations").forEach(violations::add));
            assertThat(List.of(
                            status,
                            body.path("code").asInt(),
                            body.path("turnkeyErrorCode").asString(),
                            violations.stream()
                                    .map(v -> v.path("field").asString())
                                    .findFirst()))
                    .as("status, gRPC code, turnkeyErrorCode and field of %s", text)
                    .containsExactly(
                            code.httpStatus(),
                            code.grpc().number(),
                            code.turnkeyErrorCode(),
                            Optional.ofNullable(field));
            return this;
        }
    }

    /** POSTs {@code body} ({@code null}: no body at all, as the wallet kit does) to the auth proxy. */
    private ProxyResponse proxy(
            String path, Optional<String> configId, Optional<String> origin, Object body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.authProxyUrl() + path))
                .POST(
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        configId.ifPresent(id -> request.header("X-Auth-Proxy-Config-ID", id));
        origin.ifPresent(o -> request.header("Origin", o));
        headers.forEach(request::header);
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new ProxyResponse(response.statusCode(), JSON.readTree(response.body()), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private ProxyResponse proxy(String path, String configId, Object body) {
        return proxy(path, Optional.of(configId), Optional.of(ORIGIN), body, Map.of());
    }

    /** A configuration of the root organization, made through the activity. */
    private String newConfig(Map<String, Object> settings) {
        Activity created = root.submit(
                "update_auth_proxy_config",
                "ACTIVITY_TYPE_UPDATE_AUTH_PROXY_CONFIG",
                settings,
                "updateAuthProxyConfigResult");
        assertThat(created.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        return created.result().path("configId").asString();
    }

    private String plainConfig() {
        return newConfig(Map.of("allowedOrigins", List.of(ORIGIN)));
    }

    private static String uniqueEmail() {
        return "kit-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
    }

    /** A user of the root organization with {@code email}. */
    private void newUser(String email) {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        root.createUsers(List.of(new Requests.UserParams(
                "user-" + UUID.randomUUID(),
                email,
                null,
                List.of(Requests.ApiKeyParams.of("k", key)),
                List.of(),
                List.of(),
                List.of())));
    }

    /** A verification token for {@code email} through the proxy's own otp_init_v2 and otp_verify_v2. */
    private String verificationToken(String config, String email) throws Exception {
        ProxyResponse init = proxy("/v1/otp_init_v2", config, Map.of("otpType", "OTP_TYPE_EMAIL", "contact", email));
        assertThat(init.status()).as(init.text()).isEqualTo(200);
        TargetKey key = TargetKey.generate();
        String bundle = Bundles.encryptOtpCode(
                init.body().path("otpEncryptionTargetBundle").asString(),
                Bundles.discoveredKey(server.baseUrl(), "/public/v1/discovery/otp-signer"),
                EmailedCodes.latest(smtp),
                key.compressed());
        ProxyResponse verified = proxy(
                "/v1/otp_verify_v2",
                config,
                Map.of("otpId", init.body().path("otpId").asString(), "encryptedOtpBundle", bundle));
        assertThat(verified.status()).as(verified.text()).isEqualTo(200);
        return verified.body().path("verificationToken").asString();
    }

    // ---- wallet_kit_config, wallet_kit_client_params ---------------------------------------------------------

    @Test
    void walletKitConfigReportsTheConfigurationWithoutARequestBody() {
        String defaults = plainConfig();
        ProxyResponse plain = proxy("/v1/wallet_kit_config", defaults, null);
        assertThat(plain.status()).as(plain.text()).isEqualTo(200);
        assertThat(plain.body())
                .isEqualTo(JSON.readTree("{\"enabledProviders\":[\"email\"],\"sessionExpirationSeconds\":\"900\","
                        + "\"organizationId\":\"" + server.organizationId() + "\",\"oauthClientIds\":{},"
                        + "\"otpAlphanumeric\":false,\"otpLength\":\"6\"}"));

        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("allowedOrigins", List.of(ORIGIN));
        settings.put("smsEnabled", true);
        settings.put("enabledProviders", List.of("passkey", "wallet", "google", "x"));
        settings.put("oauthClientIds", Map.of("google", "google-client.apps", "x", "x-client"));
        settings.put("oauthRedirectUrl", "https://wallet.example.com/oauth/callback");
        settings.put("otpLength", 8);
        settings.put("alphanumeric", true);
        settings.put("sessionExpirationSeconds", "1800");
        String configured = newConfig(settings);
        ProxyResponse kit = proxy("/v1/wallet_kit_config", configured, Map.of());
        assertThat(kit.status()).as(kit.text()).isEqualTo(200);
        assertThat(kit.body())
                .isEqualTo(JSON.readTree("{\"enabledProviders\":[\"email\",\"sms\",\"passkey\",\"wallet\",\"google\","
                        + "\"x\"],\"sessionExpirationSeconds\":\"1800\",\"organizationId\":\""
                        + server.organizationId() + "\",\"oauthClientIds\":{\"google\":\"google-client.apps\","
                        + "\"x\":\"x-client\"},\"oauthRedirectUrl\":\"https://wallet.example.com/oauth/callback\","
                        + "\"otpAlphanumeric\":true,\"otpLength\":\"8\"}"));
    }

    @Test
    void theSettingsAreCheckedNamingTheField() {
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.enabledProviders",
                () -> newConfig(Map.of("enabledProviders", List.of("email"))));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.enabledProviders",
                () -> newConfig(Map.of("enabledProviders", List.of("myspace"))));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.oauthClientIds.myspace",
                () -> newConfig(Map.of("oauthClientIds", Map.of("myspace", "id"))));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.oauthRedirectUrl",
                () -> newConfig(Map.of("oauthRedirectUrl", "not a url")));
        apiError(ErrorCode.BAD_REQUEST, "parameters.otpLength", () -> newConfig(Map.of("otpLength", 5)));
    }

    @Test
    void clientParamsGiveTheSiteKeyOnlyWhereCaptchasAreOn() {
        assertThat(proxy("/v1/wallet_kit_client_params", plainConfig(), null).body())
                .isEqualTo(JSON.createObjectNode());
        String guarded = newConfig(Map.of("allowedOrigins", List.of(ORIGIN), "captchaEnabled", true));
        ProxyResponse params = proxy("/v1/wallet_kit_client_params", guarded, null);
        assertThat(params.status()).isEqualTo(200);
        assertThat(params.body()).isEqualTo(JSON.readTree("{\"turnstileSiteKey\":\"" + SITE_KEY + "\"}"));
    }

    @Test
    void everyNewEndpointChecksTheConfigAndTheOrigin() {
        String config = plainConfig();
        for (String path : List.of("/v1/wallet_kit_config", "/v1/wallet_kit_client_params", "/v1/account")) {
            proxy(path, Optional.empty(), Optional.of(ORIGIN), null, Map.of()).isError(ErrorCode.BAD_REQUEST, null);
            proxy(path, Optional.of(UUID.randomUUID().toString()), Optional.of(ORIGIN), null, Map.of())
                    .isError(ErrorCode.NOT_FOUND, null);
            proxy(path, Optional.of(config), Optional.of("https://evil.example"), null, Map.of())
                    .isError(ErrorCode.REQUEST_NOT_AUTHORIZED, null);
        }
        proxy("/v1/wallet_kit_config", Optional.of(config), Optional.of(ORIGIN), "[]", Map.of())
                .isError(ErrorCode.BAD_REQUEST, null);
    }

    // ---- account -----------------------------------------------------------------------------------------

    @Test
    void anEmailLookupNeedsATokenForThatEmail() throws Exception {
        String config = plainConfig();
        String email = uniqueEmail();
        newUser(email);
        proxy("/v1/account", config, Map.of("filterType", "EMAIL", "filterValue", email))
                .isError(ErrorCode.BAD_REQUEST, "verificationToken");
        proxy("/v1/account", config, Map.of("filterType", "PHONE_NUMBER", "filterValue", "+15551234567"))
                .isError(ErrorCode.BAD_REQUEST, "verificationToken");
        proxy(
                        "/v1/account",
                        config,
                        Map.of("filterType", "PHONE_NUMBER", "filterValue", "+15551234567", "oidcToken", "x.y.z"))
                .isError(ErrorCode.BAD_REQUEST, "oidcToken");
        proxy(
                        "/v1/account",
                        config,
                        Map.of("filterType", "EMAIL", "filterValue", email, "verificationToken", "not-a-token"))
                .isError(ErrorCode.BAD_REQUEST, "verificationToken");

        String token = verificationToken(config, email);
        ProxyResponse found = proxy(
                "/v1/account", config, Map.of("filterType", "EMAIL", "filterValue", email, "verificationToken", token));
        assertThat(found.status()).as(found.text()).isEqualTo(200);
        assertThat(found.body()).isEqualTo(JSON.readTree("{\"organizationId\":\"" + server.organizationId() + "\"}"));
        // The token proves one address only, and is still good for the login that follows the lookup.
        proxy(
                        "/v1/account",
                        config,
                        Map.of("filterType", "EMAIL", "filterValue", uniqueEmail(), "verificationToken", token))
                .isError(ErrorCode.BAD_REQUEST, "verificationToken");
        assertThat(proxy(
                                "/v1/account",
                                config,
                                Map.of("filterType", "EMAIL", "filterValue", email, "verificationToken", token))
                        .body()
                        .path("organizationId")
                        .asString())
                .isEqualTo(server.organizationId());

        String stranger = uniqueEmail();
        ProxyResponse none = proxy(
                "/v1/account",
                config,
                Map.of(
                        "filterType",
                        "EMAIL",
                        "filterValue",
                        stranger,
                        "verificationToken",
                        verificationToken(config, stranger)));
        assertThat(none.status()).isEqualTo(200);
        assertThat(none.body()).isEqualTo(JSON.createObjectNode());
    }

    @Test
    void credentialAndIdentityLookupsFindTheirHolder() {
        String config = plainConfig();
        ProxyResponse byKey = proxy(
                "/v1/account",
                config,
                Map.of(
                        "filterType",
                        "PUBLIC_KEY",
                        "filterValue",
                        server.rootStamper().publicKey()));
        assertThat(byKey.status()).as(byKey.text()).isEqualTo(200);
        assertThat(byKey.body()).isEqualTo(JSON.readTree("{\"organizationId\":\"" + server.organizationId() + "\"}"));
        assertThat(proxy(
                                "/v1/account",
                                config,
                                Map.of("filterType", "PUBLIC_KEY", "filterValue", "02" + "ab".repeat(32)))
                        .body())
                .isEqualTo(JSON.createObjectNode());
        assertThat(proxy("/v1/account", config, Map.of("filterType", "CREDENTIAL_ID", "filterValue", "bm90LWEta2V5"))
                        .body())
                .isEqualTo(JSON.createObjectNode());
        assertThat(proxy(
                                "/v1/account",
                                config,
                                Map.of(
                                        "filterType",
                                        "OIDC_CLAIMS",
                                        "filterValue",
                                        "{\"iss\":\"https://accounts.google.com\",\"sub\":\"1\",\"aud\":\"a\"}"))
                        .body())
                .isEqualTo(JSON.createObjectNode());
    }

    @Test
    void badLookupsAreRefusedNamingTheField() {
        String config = plainConfig();
        proxy("/v1/account", config, Map.of("filterType", "SOCIAL", "filterValue", "x"))
                .isError(ErrorCode.BAD_REQUEST, "filterType");
        proxy("/v1/account", config, Map.of("filterValue", "x")).isError(ErrorCode.BAD_REQUEST, "filterType");
        proxy("/v1/account", config, Map.of("filterType", "PUBLIC_KEY")).isError(ErrorCode.BAD_REQUEST, "filterValue");
        proxy("/v1/account", config, Map.of("filterType", "PUBLIC_KEY", "filterValue", "not-hex"))
                .isError(ErrorCode.BAD_REQUEST, "filterValue");
        proxy("/v1/account", config, Map.of("filterType", "CREDENTIAL_ID", "filterValue", "not base64!"))
                .isError(ErrorCode.BAD_REQUEST, "filterValue");
        proxy("/v1/account", config, Map.of("filterType", "OIDC_CLAIMS", "filterValue", "{\"iss\":1}"))
                .isError(ErrorCode.BAD_REQUEST, "filterValue");
        proxy("/v1/account", config, Map.of("filterType", "OIDC_TOKEN", "filterValue", "not-a-jwt"))
                .isError(ErrorCode.INVALID_OIDC_TOKEN, "filterValue");
        proxy("/v1/account", config, Map.of("filterType", "EMAIL", "filterValue", "not-an-email"))
                .isError(ErrorCode.BAD_REQUEST, "filterValue");
        proxy("/v1/account", config, Map.of("filterType", "USERNAME", "filterValue", "alice"))
                .isError(ErrorCode.BAD_REQUEST, "filterType");
        proxy("/v1/account", config, Map.of("filterType", "NAME", "filterValue", "alice"))
                .isError(ErrorCode.BAD_REQUEST, "filterType");
    }

    // ---- the flat body's field paths --------------------------------------------------------------------

    @Test
    void errorsNameTheFieldsOfTheFlatBody() {
        String config = plainConfig();
        proxy(
                        "/v1/otp_login_v2",
                        config,
                        Map.of(
                                "verificationToken",
                                "not-a-token",
                                "publicKey",
                                TargetKey.generate().compressed(),
                                "clientSignature",
                                Map.of("publicKey", "02", "message", "{}", "signature", "00")))
                .isError(ErrorCode.BAD_REQUEST, "verificationToken");
        proxy("/v1/otp_login_v2", config, Map.of("verificationToken", "t", "publicKey", "zz"))
                .isError(ErrorCode.BAD_REQUEST, "publicKey");
        ProxyResponse init =
                proxy("/v1/otp_init_v2", config, Map.of("otpType", "OTP_TYPE_EMAIL", "contact", uniqueEmail()));
        proxy(
                        "/v1/otp_verify_v2",
                        config,
                        Map.of("otpId", init.body().path("otpId").asString(), "encryptedOtpBundle", "{}"))
                .isError(ErrorCode.BAD_REQUEST, "encryptedOtpBundle");
    }

    // ---- captcha -----------------------------------------------------------------------------------------

    @Test
    void aConfigWithCaptchasWantsATokenTheVerifierAccepts() {
        String guarded = newConfig(Map.of("allowedOrigins", List.of(ORIGIN), "captchaEnabled", true));
        Map<String, Object> init = Map.of("otpType", "OTP_TYPE_EMAIL", "contact", uniqueEmail());
        proxy("/v1/otp_init_v2", Optional.of(guarded), Optional.of(ORIGIN), init, Map.of())
                .isError(ErrorCode.REQUEST_NOT_AUTHORIZED, null);
        assertThat(captchaChecks).isEmpty();
        proxy("/v1/otp_init_v2", Optional.of(guarded), Optional.of(ORIGIN), init, Map.of("X-Captcha-Token", "forged"))
                .isError(ErrorCode.REQUEST_NOT_AUTHORIZED, null);
        ProxyResponse accepted = proxy(
                "/v1/otp_init", Optional.of(guarded), Optional.of(ORIGIN), init, Map.of("X-Captcha-Token", GOOD_TOKEN));
        assertThat(accepted.status()).as(accepted.text()).isEqualTo(200);
        assertThat(captchaChecks).hasSize(2);
        assertThat(captchaChecks.getLast())
                .containsEntry("secret", SECRET)
                .containsEntry("response", GOOD_TOKEN)
                .containsEntry("remoteip", "127.0.0.1");
        // Paths that take no captcha, and configurations that do not enable it, never ask the verifier.
        assertThat(proxy("/v1/wallet_kit_config", guarded, null).status()).isEqualTo(200);
        assertThat(proxy("/v1/otp_init_v2", plainConfig(), init).status()).isEqualTo(200);
        assertThat(captchaChecks).hasSize(2);
    }
}
