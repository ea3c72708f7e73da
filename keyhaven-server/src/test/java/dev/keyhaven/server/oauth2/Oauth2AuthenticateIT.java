package dev.keyhaven.server.oauth2;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import dev.keyhaven.crypto.bundle.TurnkeyHpke;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.app.KeyhavenConfig;
import dev.keyhaven.server.app.OtpSettings;
import dev.keyhaven.server.oauth2.FakeOauth2Provider.Answer;
import dev.keyhaven.server.oauth2.FakeOauth2Provider.Received;
import dev.keyhaven.server.testing.Bundles.TargetKey;
import dev.keyhaven.server.testing.ClientSecrets;
import dev.keyhaven.server.testing.OnBothStores;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code oauth2_authenticate} and the auth proxy's {@code /v1/oauth2_authenticate} against a fake provider on
 * loopback (both stores): what the provider receives (code, redirect URI, verifier, HTTP Basic client credentials,
 * the bearer token at userinfo), the minted token verified with the published key and its claims, the encrypted
 * bearer token, and the failure paths (token endpoint 400 / 500, userinfo failures, redirects, unreachable).
 */
class Oauth2AuthenticateIT extends OnBothStores {
    private static final String X = "OAUTH2_PROVIDER_X";
    private static final String DISCORD = "OAUTH2_PROVIDER_DISCORD";
    private static final String X_ISSUER = "https://x.example.test";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static FakeOauth2Provider provider;
    private final HttpClient http = HttpClient.newHttpClient();

    @Override
    protected KeyhavenConfig configure(KeyhavenConfig defaults) {
        if (provider == null) {
            provider = FakeOauth2Provider.start();
        }
        // Discord keeps its default issuer: a providers-file entry without "issuer" does.
        return defaults.withOtp(OtpSettings.defaults().withAuthProxyPort(OptionalInt.of(0)))
                .withOauth2Providers(new Oauth2Providers(Map.of(
                        Oauth2Provider.OAUTH2_PROVIDER_X,
                                new Oauth2Providers.Endpoints(
                                        provider.url("/x/token"), provider.url("/x/users/me"), X_ISSUER),
                        Oauth2Provider.OAUTH2_PROVIDER_DISCORD,
                                new Oauth2Providers.Endpoints(
                                        provider.url("/discord/token"),
                                        provider.url("/discord/users/@me"),
                                        "https://discord.com"))));
    }

    @AfterAll
    static void stopProvider() {
        if (provider != null) {
            provider.close();
            provider = null;
        }
    }

    @BeforeEach
    void providerAnswersWell() {
        provider.clear();
        provider.answer(
                "/x/token",
                Answer.json(
                        200, "{\"token_type\":\"bearer\",\"access_token\":\"x-bearer-token\",\"expires_in\":7200}"));
        provider.answer(
                "/x/users/me",
                Answer.json(200, "{\"data\":{\"id\":\"1234567890\",\"name\":\"X User\",\"username\":\"xuser\"}}"));
        provider.answer(
                "/discord/token",
                Answer.json(
                        200,
                        "{\"token_type\":\"Bearer\",\"access_token\":\"discord-bearer-token\",\"expires_in\":604800}"));
        provider.answer("/discord/users/@me", Answer.json(200, "{\"id\":\"80351110224678912\",\"username\":\"d\"}"));
    }

    /** A stored credential: its id, client id and plain secret (known to the test only). */
    private record Credential(String id, String clientId, String secret) {}

    private Credential credential(String providerName) {
        String clientId = "client-" + UUID.randomUUID();
        String secret = "secret-" + UUID.randomUUID();
        Activity created = root.submit(
                "create_oauth2_credential",
                "ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL",
                Map.of(
                        "provider",
                        providerName,
                        "clientId",
                        clientId,
                        "encryptedClientSecret",
                        ClientSecrets.encrypt(ClientSecrets.encryptionKey(server.baseUrl()), secret)),
                "createOauth2CredentialResult");
        return new Credential(created.result().path("oauth2CredentialId").asString(), clientId, secret);
    }

    private static Map<String, Object> signIn(String credentialId, String code, String verifier, String nonce) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("oauth2CredentialId", credentialId);
        p.put("authCode", code);
        p.put("redirectUri", "https://app.example.com/callback?from=keyhaven");
        p.put("codeVerifier", verifier);
        p.put("nonce", nonce);
        return p;
    }

    private Activity authenticate(Map<String, Object> params) {
        return root.submit(
                "oauth2_authenticate", "ACTIVITY_TYPE_OAUTH2_AUTHENTICATE", params, "oauth2AuthenticateResult");
    }

    private static Map<String, String> form(String body) {
        Map<String, String> form = new LinkedHashMap<>();
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            form.put(
                    URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return form;
    }

    /** The token's claims, after checking its ES256 signature with the published key and its kid. */
    private JWTClaimsSet verified(String token) throws Exception {
        SignedJWT jwt = SignedJWT.parse(token);
        List<com.nimbusds.jose.jwk.JWK> keys =
                server.keyhaven().oauth2Tokens().publicJwks().getKeys();
        assertThat(keys).hasSize(1);
        ECKey key = keys.getFirst().toECKey();
        assertThat(key.isPrivate()).isFalse();
        assertThat(jwt.getHeader().getAlgorithm().getName()).isEqualTo("ES256");
        assertThat(jwt.getHeader().getKeyID()).isEqualTo(key.getKeyID()).isNotBlank();
        assertThat(jwt.verify(new ECDSAVerifier(key))).isTrue();
        return jwt.getJWTClaimsSet();
    }

    @Test
    void anXCodeIsExchangedWithTheStoredClientAndATokenIsMintedForTheXUser() throws Exception {
        Credential credential = credential(X);
        String nonce = HexFormat.of().formatHex(new byte[32]).replace('0', 'a');
        Activity activity =
                authenticate(signIn(credential.id(), "code+with/odd=chars", "verifier-" + "v".repeat(43), nonce));
        assertThat(activity.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(activity.type()).isEqualTo("ACTIVITY_TYPE_OAUTH2_AUTHENTICATE");
        String token = activity.result().path("oidcToken").asString();

        List<Received> received = provider.received();
        assertThat(received).hasSize(2);
        Received tokenRequest = received.get(0);
        assertThat(tokenRequest.method()).isEqualTo("POST");
        assertThat(tokenRequest.path()).isEqualTo("/x/token");
        assertThat(tokenRequest.header("Content-Type")).isEqualTo("application/x-www-form-urlencoded");
        assertThat(form(tokenRequest.body()))
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "grant_type",
                        "authorization_code",
                        "code",
                        "code+with/odd=chars",
                        "redirect_uri",
                        "https://app.example.com/callback?from=keyhaven",
                        "code_verifier",
                        "verifier-" + "v".repeat(43),
                        "client_id",
                        credential.clientId()));
        assertThat(tokenRequest.header("Authorization"))
                .isEqualTo("Basic "
                        + Base64.getEncoder()
                                .encodeToString((credential.clientId() + ":" + credential.secret())
                                        .getBytes(StandardCharsets.UTF_8)));
        Received userinfo = received.get(1);
        assertThat(userinfo.method()).isEqualTo("GET");
        assertThat(userinfo.path()).isEqualTo("/x/users/me");
        assertThat(userinfo.header("Authorization")).isEqualTo("Bearer x-bearer-token");

        JWTClaimsSet claims = verified(token);
        assertThat(claims.getIssuer()).isEqualTo(X_ISSUER);
        assertThat(claims.getAudience()).containsExactly(credential.clientId());
        assertThat(claims.getSubject()).isEqualTo("1234567890");
        assertThat(claims.getStringClaim("nonce")).isEqualTo(nonce);
        assertThat(claims.getExpirationTime().getTime() - claims.getIssueTime().getTime())
                .isEqualTo(600_000);
        assertThat(claims.getIssueTime().getTime())
                .isCloseTo(System.currentTimeMillis(), org.assertj.core.api.Assertions.within(60_000L));
        assertThat(claims.getClaim("encrypted_bearer_token")).isNull();
        assertThat(server.keyhaven().oauth2Tokens().issuers())
                .containsExactlyInAnyOrder(X_ISSUER, "https://discord.com");
        // Neither the secret nor the provider's bearer token is in the activity.
        String recorded =
                root.query("get_activity", Map.of("activityId", activity.id())).toString();
        assertThat(recorded)
                .doesNotContain(credential.secret())
                .doesNotContain("x-bearer-token")
                .contains(token);
    }

    @Test
    void aMintedTokenRegistersTheXUserAndSignsItInThroughOauthLogin() {
        Credential credential = credential(X);
        TargetKey session = TargetKey.generate();
        String nonce =
                HexFormat.of().formatHex(Digests.sha256(session.compressed().getBytes(StandardCharsets.UTF_8)));
        String first = authenticate(signIn(credential.id(), "code-1", "v".repeat(43), nonce))
                .result()
                .path("oidcToken")
                .asString();
        // Keyhaven trusts its own tokens (any audience): a user registered by token takes the identity from it.
        Activity created = root.submit(
                "create_users",
                "ACTIVITY_TYPE_CREATE_USERS_V4",
                Map.of(
                        "users",
                        List.of(Map.of(
                                "userName",
                                "x-user-" + UUID.randomUUID(),
                                "apiKeys",
                                List.of(),
                                "authenticators",
                                List.of(),
                                "oauthProviders",
                                List.of(Map.of("providerName", "X", "oidcToken", first)),
                                "userTags",
                                List.of()))),
                "createUsersResult");
        assertThat(created.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        String userId = created.result().path("userIds").get(0).asString();
        JsonNode provider = root.query("get_oauth_providers", Map.of("userId", userId))
                .path("oauthProviders")
                .get(0);
        assertThat(provider.path("issuer").asString()).isEqualTo(X_ISSUER);
        assertThat(provider.path("audience").asString()).isEqualTo(credential.clientId());
        assertThat(provider.path("subject").asString()).isEqualTo("1234567890");

        String second = authenticate(signIn(credential.id(), "code-2", "v".repeat(43), nonce))
                .result()
                .path("oidcToken")
                .asString();
        Activity login = root.submit(
                "oauth_login",
                "ACTIVITY_TYPE_OAUTH_LOGIN",
                Map.of("oidcToken", second, "publicKey", session.compressed()),
                "oauthLoginResult");
        assertThat(login.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        KeyhavenClient asSession = root.withStamper(ApiKeyStamper.fromPrivateKey(
                ApiKeyStamper.Curve.P256, HexFormat.of().formatHex(session.privateKey())));
        assertThat(asSession.whoami().userId()).isEqualTo(userId);
    }

    @Test
    void aDiscordCodeWithoutPkceSignsInTheDiscordUserAndCanCarryTheEncryptedBearerToken() throws Exception {
        Credential credential = credential(DISCORD);
        try (SecretBytes target = KeyCurve.P256.generatePrivateKey(new SecureRandom())) {
            String targetPublic = HexFormat.of().formatHex(KeyCurve.P256.publicKey(target));
            Map<String, Object> params = signIn(credential.id(), "discord-code", "", "nonce-1");
            params.put("bearerTokenTargetPublicKey", targetPublic);
            JWTClaimsSet claims =
                    verified(authenticate(params).result().path("oidcToken").asString());
            assertThat(claims.getIssuer()).isEqualTo("https://discord.com");
            assertThat(claims.getSubject()).isEqualTo("80351110224678912");
            assertThat(form(provider.received().getFirst().body()))
                    .doesNotContainKey("code_verifier")
                    .containsEntry("code", "discord-code");
            // As Turnkey's X example reads it: a credential bundle, for decryptCredentialBundle.
            try (SecretBytes opened = TurnkeyHpke.open(
                    target,
                    TurnkeyHpke.Encrypted.ofCredentialBundle(claims.getStringClaim("encrypted_bearer_token")))) {
                String bearer = opened.apply(SecretKeyAccess.get(), b -> new String(b, StandardCharsets.UTF_8));
                assertThat(bearer).isEqualTo("discord-bearer-token");
            }
        }
    }

    @Test
    void badParametersAndUnknownCredentialsAreRefusedBeforeAnyExchange() {
        Credential credential = credential(X);
        KeyhavenApiException unknown =
                apiError(() -> authenticate(signIn(UUID.randomUUID().toString(), "c", "v", "n")));
        assertThat(unknown.httpStatus()).isEqualTo(404);
        assertThat(unknown.turnkeyErrorCode()).isEqualTo("OAUTH2_CREDENTIAL_NOT_FOUND");
        for (String field : List.of("authCode", "redirectUri", "nonce", "oauth2CredentialId")) {
            Map<String, Object> params = signIn(credential.id(), "c", "v", "n");
            params.remove(field);
            apiError(ErrorCode.BAD_REQUEST, "parameters." + field, () -> authenticate(params));
        }
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.authCode",
                                () -> authenticate(signIn(credential.id(), "", "v", "n")))
                        .serverMessage())
                .isEqualTo("bad request body: parameters.authCode must not be empty");
        Map<String, Object> badTarget = signIn(credential.id(), "c", "v", "n");
        badTarget.put("bearerTokenTargetPublicKey", "04abcd");
        apiError(ErrorCode.BAD_REQUEST, "parameters.bearerTokenTargetPublicKey", () -> authenticate(badTarget));
        assertThat(provider.received()).isEmpty();
    }

    @Test
    void aRefusedCodeIsA400ThatQuotesOnlyTheOAuthErrorCode() {
        Credential credential = credential(X);
        provider.answer(
                "/x/token",
                Answer.json(
                        400,
                        "{\"error\":\"invalid_grant\",\"error_description\":"
                                + "\"Value passed for the authorization code was invalid: secret-looking-detail\"}"));
        KeyhavenApiException refused = apiError(
                ErrorCode.OAUTH2_PROVIDER_REJECTED,
                null,
                () -> authenticate(signIn(credential.id(), "used-code", "v", "n")));
        assertThat(refused.serverMessage())
                .startsWith("the OAuth 2.0 provider refused the authorization code: its "
                        + "token endpoint answered HTTP 400")
                .contains("invalid_grant")
                .doesNotContain("secret-looking-detail")
                .doesNotContain("used-code")
                .doesNotContain(credential.secret());
        assertThat(provider.received()).hasSize(1);
    }

    @Test
    void providerFailuresAre502sThatEchoNothing() throws Exception {
        Credential credential = credential(X);
        provider.answer("/x/token", Answer.json(500, "{\"error\":\"server_error\",\"detail\":\"stack trace\"}"));
        assertProviderFailure(credential, "token endpoint answered HTTP 500");

        providerAnswersWell();
        provider.answer("/x/users/me", Answer.json(401, "{\"title\":\"Unauthorized\"}"));
        assertProviderFailure(credential, "userinfo endpoint answered HTTP 401");

        providerAnswersWell();
        provider.answer("/x/users/me", Answer.json(200, "{\"data\":{\"name\":\"no id\"}}"));
        assertProviderFailure(credential, "without the user's id (data.id)");

        providerAnswersWell();
        provider.answer("/x/token", Answer.json(200, "{\"token_type\":\"mac\",\"access_token\":\"t\"}"));
        assertProviderFailure(credential, "without a bearer access_token");

        providerAnswersWell();
        provider.answer(
                "/x/token",
                new Answer(
                        302, "", Map.of("Location", provider.url("/x/elsewhere").toString())));
        assertProviderFailure(credential, "redirects are not followed");
        assertThat(provider.received()).extracting(Received::path).doesNotContain("/x/elsewhere");
    }

    private void assertProviderFailure(Credential credential, String expected) {
        KeyhavenApiException failed = apiError(
                ErrorCode.OAUTH2_PROVIDER_UNAVAILABLE,
                null,
                () -> authenticate(signIn(credential.id(), "code-" + UUID.randomUUID(), "v", "n")));
        assertThat(failed.serverMessage())
                .as(expected)
                .contains(expected)
                .doesNotContain("stack trace")
                .doesNotContain(credential.secret())
                .doesNotContain("x-bearer-token");
    }

    @Test
    void aProviderThatDropsTheConnectionIsA502() {
        Credential credential = credential(X);
        provider.answer("/x/token", Answer.DROP);
        assertProviderFailure(credential, "token endpoint could not be reached");
    }

    @Test
    void theAuthProxyExchangesWithTheConfigOrganizationsCredential() throws Exception {
        Credential credential = credential(X);
        String config = server.keyhaven().authProxyConfigs().isEmpty()
                ? server.keyhaven().createDefaultAuthProxyConfig(server.organizationId())
                : server.keyhaven().authProxyConfigs().getFirst().id();
        Map<String, Object> body = new LinkedHashMap<>(Map.of(
                "provider",
                X,
                "clientId",
                credential.clientId(),
                "authCode",
                "proxy-code",
                "redirectUri",
                "https://app.example.com/cb",
                "codeVerifier",
                "pkce",
                "nonce",
                "proxy-nonce"));
        ProxyResponse ok = proxy(Optional.of(config), body);
        assertThat(ok.status()).isEqualTo(200);
        assertThat(ok.body().propertyNames()).containsExactly("oidcToken");
        JWTClaimsSet claims = verified(ok.body().path("oidcToken").asString());
        assertThat(claims.getSubject()).isEqualTo("1234567890");
        assertThat(claims.getAudience()).containsExactly(credential.clientId());
        assertThat(claims.getStringClaim("nonce")).isEqualTo("proxy-nonce");
        assertThat(form(provider.received().getFirst().body()))
                .containsEntry("code", "proxy-code")
                .containsEntry("code_verifier", "pkce");

        Map<String, Object> otherClient = new LinkedHashMap<>(body);
        otherClient.put("clientId", "not-" + credential.clientId());
        ProxyResponse notFound = proxy(Optional.of(config), otherClient);
        assertThat(notFound.status()).isEqualTo(404);
        assertThat(notFound.body().path("turnkeyErrorCode").asString()).isEqualTo("OAUTH2_CREDENTIAL_NOT_FOUND");
        Map<String, Object> otherProvider = new LinkedHashMap<>(body);
        otherProvider.put("provider", DISCORD);
        assertThat(proxy(Optional.of(config), otherProvider).status()).isEqualTo(404);
        Map<String, Object> badProvider = new LinkedHashMap<>(body);
        badProvider.put("provider", "OAUTH2_PROVIDER_GOOGLE");
        ProxyResponse invalid = proxy(Optional.of(config), badProvider);
        assertThat(invalid.status()).isEqualTo(400);
        assertThat(invalid.body().path("turnkeyErrorCode").asString()).isEqualTo("INVALID_OAUTH2_PROVIDER");
        assertThat(proxy(Optional.empty(), body).status()).isEqualTo(400);

        provider.answer("/x/token", Answer.json(400, "{\"error\":\"invalid_grant\"}"));
        ProxyResponse refused = proxy(Optional.of(config), body);
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body().path("message").asString())
                .contains("invalid_grant")
                .doesNotContain(credential.secret());
        HttpResponse<String> noV2 = http.send(
                HttpRequest.newBuilder(URI.create(server.authProxyUrl() + "/v1/oauth2_authenticate_v2"))
                        .header("X-Auth-Proxy-Config-ID", config)
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(noV2.statusCode()).isEqualTo(404);
    }

    private record ProxyResponse(int status, JsonNode body) {}

    private ProxyResponse proxy(Optional<String> configId, Map<String, Object> body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                        URI.create(server.authProxyUrl() + "/v1/oauth2_authenticate"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        configId.ifPresent(id -> request.header("X-Auth-Proxy-Config-ID", id));
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return new ProxyResponse(response.statusCode(), JSON.readTree(response.body()));
    }
}
