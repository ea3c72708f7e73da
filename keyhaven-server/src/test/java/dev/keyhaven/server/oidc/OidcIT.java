package dev.keyhaven.server.oidc;

import static dev.keyhaven.server.oidc.TestJwts.ec;
import static dev.keyhaven.server.oidc.TestJwts.rsa;
import static dev.keyhaven.server.oidc.TestJwts.signed;
import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static dev.keyhaven.server.testing.AttestedStamps.attested;
import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests;
import dev.keyhaven.client.Stamper;
import dev.keyhaven.crypto.Digests;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.app.KeyhavenConfig;
import dev.keyhaven.server.app.OtpSettings;
import dev.keyhaven.server.mail.MailSettings;
import dev.keyhaven.server.testing.AttestedStamps;
import dev.keyhaven.server.testing.Bundles;
import dev.keyhaven.server.testing.Bundles.TargetKey;
import dev.keyhaven.server.testing.EmailedCodes;
import dev.keyhaven.server.testing.MutableClock;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.TestServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * OIDC over real HTTP with a local issuer (its JWKS served on loopback, RSA and EC keys, fetches counted): OAuth
 * providers on users (by token and by claims), oauth_login through the API and the auth proxy (with sign-up), the
 * failures (audience, expiry, nonce, replay, untrusted issuer, alg none, HMAC, an identity bound elsewhere), key
 * rotation, and X-Stamp-Attested with OIDC and OTP verification tokens.
 */
class OidcIT extends OnBothStores {
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final HexFormat HEX = HexFormat.of();
    private static final String MAIN = "https://issuer.test";
    private static final String ROTATING = "https://rotating.test";
    private static final String FROM_FILE = "https://file-issuer.test";
    private static final String UNTRUSTED = "https://untrusted.test";
    private static final RSAKey RSA = rsa("rsa-1");
    private static final ECKey EC = ec("ec-1");
    private static final ECKey FILE_KEY = ec("file-1");
    private static final ECKey ROTATED_OUT = ec("old-1");
    private static final ECKey ROTATED_IN = ec("new-1");

    private final MutableClock clock = MutableClock.ticking();
    private final AtomicInteger mainFetches = new AtomicInteger();
    private final AtomicInteger rotatingFetches = new AtomicInteger();
    private final AtomicInteger untrustedFetches = new AtomicInteger();
    private final AtomicReference<JWKSet> rotatingKeys = new AtomicReference<>();
    private final HttpClient http = HttpClient.newHttpClient();
    private HttpServer issuer;
    private GreenMail smtp;
    private KeyhavenClient client;

    @Override
    protected Clock clock() {
        return clock;
    }

    @Override
    protected KeyhavenConfig configure(KeyhavenConfig defaults) {
        // Each store's server starts with a fresh view of the rotating issuer.
        rotatingKeys.set(new JWKSet(ROTATED_OUT.toPublicJWK()));
        rotatingFetches.set(0);
        try {
            if (issuer == null) {
                issuer = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
                serve("/main", mainFetches, () -> new JWKSet(List.of(RSA.toPublicJWK(), EC.toPublicJWK())));
                serve("/rotating", rotatingFetches, rotatingKeys::get);
                serve("/untrusted", untrustedFetches, () -> new JWKSet(RSA.toPublicJWK()));
                issuer.start();
                smtp = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
                smtp.start();
            }
            // In the server's data directory, which the server deletes when it stops.
            Path directory = Files.createDirectories(defaults.dataDirectory().resolve("oidc-issuers"));
            Files.writeString(directory.resolve("file.jwks.json"), new JWKSet(FILE_KEY.toPublicJWK()).toString());
            String base = "http://127.0.0.1:" + issuer.getAddress().getPort();
            Path file = directory.resolve("issuers.json");
            Files.writeString(file, """
                    [{"issuer": "%s", "jwksUri": "%s/main", "audiences": ["app-1", "app-2"]},
                     {"issuer": "%s", "jwksUri": "%s/rotating", "audiences": ["app-1"]},
                     {"issuer": "%s", "jwksFile": "file.jwks.json", "audiences": ["app-1"]}]
                    """.formatted(MAIN, base, ROTATING, base, FROM_FILE));
            return defaults.withOidcIssuers(IssuersFile.read(file))
                    .withOtp(OtpSettings.defaults().withAuthProxyPort(OptionalInt.of(0)))
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
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void serve(String path, AtomicInteger fetches, java.util.function.Supplier<JWKSet> keys) {
        issuer.createContext(path, exchange -> {
            fetches.incrementAndGet();
            byte[] body = keys.get().toString().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
    }

    @AfterAll
    void stopIssuer() {
        if (issuer != null) {
            issuer.stop(0);
        }
        if (smtp != null) {
            smtp.stop();
        }
    }

    @BeforeEach
    void clientOnTheServersClock() {
        client = root.withClock(clock);
    }

    // ---- oauth_login -----------------------------------------------------------------------------------------

    @Test
    void aValidTokenOpensASessionWhoseKeyStampsWhoami() throws Exception {
        String sub = uniqueSubject();
        String userId = newUser(List.of(claimsProvider(MAIN, "app-1", sub)));
        TargetKey session = TargetKey.generate();
        Activity login = oauthLogin(
                token(RSA, JWSAlgorithm.RS256, MAIN, "app-1", sub, nonce(session.compressed())), session.compressed());
        assertThat(login.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        JsonNode claims = sessionClaims(login.result().path("session").asString());
        assertThat(claims.path("user_id").asString()).isEqualTo(userId);
        assertThat(claims.path("public_key").asString()).isEqualTo(session.compressed());
        assertThat(sessionClient(session, server.organizationId()).whoami().userId())
                .isEqualTo(userId);

        // An EC-signed token, and a session key sent uncompressed: the nonce covers the key exactly as sent.
        TargetKey second = TargetKey.generate();
        Activity again = oauthLogin(
                token(EC, JWSAlgorithm.ES256, MAIN, "app-1", sub, nonce(second.uncompressed())), second.uncompressed());
        assertThat(sessionClient(second, server.organizationId()).whoami().userId())
                .isEqualTo(userId);
        assertThat(again.raw()
                        .path("intent")
                        .path("oauthLoginIntent")
                        .path("publicKey")
                        .asString())
                .isEqualTo(second.uncompressed());
    }

    @Test
    void aJwksFileIssuerIsTrustedToo() throws Exception {
        String sub = uniqueSubject();
        String userId = newUser(List.of(claimsProvider(FROM_FILE, "app-1", sub)));
        assertLogsIn(userId, FILE_KEY, JWSAlgorithm.ES256, FROM_FILE, "app-1", sub);
    }

    @Test
    void aWrongAudienceAnExpiredTokenAndAWrongNonceAreRefused() throws Exception {
        String sub = uniqueSubject();
        newUser(List.of(claimsProvider(MAIN, "app-1", sub)));
        TargetKey session = TargetKey.generate();
        assertInvalidLogin(
                token(RSA, JWSAlgorithm.RS256, MAIN, "app-9", sub, nonce(session.compressed())),
                session,
                "audience (aud) is not one of the audiences");
        String expired = signed(
                RSA,
                JWSAlgorithm.RS256,
                claims(MAIN, "app-1", sub, nonce(session.compressed()))
                        .expirationTime(Date.from(clock.instant().minusSeconds(120)))
                        .build());
        assertInvalidLogin(expired, session, "has expired");
        assertInvalidLogin(
                token(
                        RSA,
                        JWSAlgorithm.RS256,
                        MAIN,
                        "app-1",
                        sub,
                        nonce(TargetKey.generate().compressed())),
                session,
                "nonce does not match");
        // A valid token whose identity nobody holds is a 404, not a token error.
        KeyhavenApiException nobody = apiError(
                ErrorCode.NOT_FOUND,
                null,
                () -> oauthLogin(
                        token(RSA, JWSAlgorithm.RS256, MAIN, "app-2", sub, nonce(session.compressed())),
                        session.compressed()));
        assertThat(nobody.serverMessage())
                .isEqualTo("no user of this organization has an OAuth provider for this "
                        + "OIDC token's issuer, audience and subject");
    }

    @Test
    void aTokenExpiresOnTheServersClockAfterTheSkew() throws Exception {
        String sub = uniqueSubject();
        String userId = newUser(List.of(claimsProvider(MAIN, "app-1", sub)));
        TargetKey session = TargetKey.generate();
        String token = signed(
                RSA,
                JWSAlgorithm.RS256,
                claims(MAIN, "app-1", sub, nonce(session.compressed()))
                        .expirationTime(Date.from(clock.instant().plusSeconds(30)))
                        .build());
        clock.advance(Duration.ofSeconds(100));
        assertInvalidLogin(token, session, "has expired");
        assertLogsIn(userId, RSA, JWSAlgorithm.RS256, MAIN, "app-1", sub);
    }

    @Test
    void aTokenOpensOneSessionOnly() throws Exception {
        String sub = uniqueSubject();
        newUser(List.of(claimsProvider(MAIN, "app-1", sub)));
        TargetKey session = TargetKey.generate();
        String token = token(RSA, JWSAlgorithm.RS256, MAIN, "app-1", sub, nonce(session.compressed()));
        oauthLogin(token, session.compressed());
        assertInvalidLogin(token, session, "oidc token has already been used");
        // The same token wrapped in base64 is the same token.
        assertInvalidLogin(
                Base64.getEncoder().encodeToString(token.getBytes(StandardCharsets.UTF_8)),
                session,
                "oidc token has already been used");
    }

    @Test
    void anUnknownKidIsFetchedAgainAndTheRotatedKeyVerifies() throws Exception {
        String sub = uniqueSubject();
        String userId = newUser(List.of(claimsProvider(ROTATING, "app-1", sub)));
        TargetKey first = TargetKey.generate();
        oauthLogin(
                token(ROTATED_OUT, JWSAlgorithm.ES256, ROTATING, "app-1", sub, nonce(first.compressed())),
                first.compressed());
        assertThat(rotatingFetches.get()).isEqualTo(1);
        rotatingKeys.set(new JWKSet(ROTATED_IN.toPublicJWK()));
        TargetKey second = TargetKey.generate();
        oauthLogin(
                token(ROTATED_IN, JWSAlgorithm.ES256, ROTATING, "app-1", sub, nonce(second.compressed())),
                second.compressed());
        assertThat(rotatingFetches.get()).isEqualTo(2);
        assertThat(sessionClient(second, server.organizationId()).whoami().userId())
                .isEqualTo(userId);
        // Refetches are rate-limited: a third unknown kid soon after does not reach the issuer.
        TargetKey third = TargetKey.generate();
        KeyhavenApiException unknownKid = apiError(
                ErrorCode.INVALID_OIDC_TOKEN,
                null,
                () -> oauthLogin(
                        token(ec("stranger-1"), JWSAlgorithm.ES256, ROTATING, "app-1", sub, nonce(third.compressed())),
                        third.compressed()));
        assertThat(unknownKid.serverMessage())
                .startsWith("invalid OIDC token: the token names a key issuer " + ROTATING
                        + " did not publish when its keys were last fetched (");
        assertThat(rotatingFetches.get()).isEqualTo(2);
    }

    @Test
    void anUntrustedIssuerIsRefusedWithoutAnyFetch() throws Exception {
        String sub = uniqueSubject();
        newUser(List.of(claimsProvider(UNTRUSTED, "app-1", sub)));
        TargetKey session = TargetKey.generate();
        assertInvalidLogin(
                token(RSA, JWSAlgorithm.RS256, UNTRUSTED, "app-1", sub, nonce(session.compressed())),
                session,
                "was issued by " + UNTRUSTED + ", which is not a trusted OIDC issuer");
        assertThat(untrustedFetches.get()).isZero();
    }

    @Test
    void algNoneAndHmacAreRefused() throws Exception {
        String sub = uniqueSubject();
        newUser(List.of(claimsProvider(MAIN, "app-1", sub)));
        TargetKey session = TargetKey.generate();
        JWTClaimsSet claims =
                claims(MAIN, "app-1", sub, nonce(session.compressed())).build();
        assertInvalidLogin(new PlainJWT(claims).serialize(), session, "is not signed");
        SignedJWT hmac = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
        hmac.sign(new MACSigner(RSA.toRSAPublicKey().getEncoded()));
        assertInvalidLogin(hmac.serialize(), session, "algorithm HS256, which is not accepted");
    }

    @Test
    void badLoginParametersNameTheField() throws Exception {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("oidcToken", token(RSA, JWSAlgorithm.RS256, MAIN, "app-1", "x", "n"));
        p.put("publicKey", "zz");
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.publicKey",
                () -> client.submit("oauth_login", "ACTIVITY_TYPE_OAUTH_LOGIN", p, "oauthLoginResult"));
        KeyhavenApiException missing = apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.oidcToken",
                () -> client.submit(
                        "oauth_login",
                        "ACTIVITY_TYPE_OAUTH_LOGIN",
                        Map.of("publicKey", TargetKey.generate().compressed()),
                        "oauthLoginResult"));
        assertThat(missing.serverMessage()).isEqualTo("bad request body: parameters.oidcToken is required");
    }

    // ---- oauth (the older credential-bundle sign-in) ---------------------------------------------------------

    @Test
    void theOlderOauthActivityReturnsABundleWhoseKeyStampsWhoamiOnce() throws Exception {
        String sub = uniqueSubject();
        String userId = newUser(List.of(claimsProvider(MAIN, "app-1", sub)));
        TargetKey target = TargetKey.generate();
        String token = token(RSA, JWSAlgorithm.RS256, MAIN, "app-1", sub, nonce(target.uncompressed()));
        Activity done = oauth(token, target.uncompressed(), Map.of("apiKeyName", "legacy oauth"));
        assertThat(done.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(done.result().path("userId").asString()).isEqualTo(userId);
        String apiKeyId = done.result().path("apiKeyId").asString();
        byte[] key = target.open(dev.keyhaven.crypto.bundle.TurnkeyHpke.Encrypted.ofCredentialBundle(
                done.result().path("credentialBundle").asString()));
        KeyhavenClient signedIn =
                client.withStamper(ApiKeyStamper.fromPrivateKey(ApiKeyStamper.Curve.P256, HEX.formatHex(key)));
        assertThat(signedIn.whoami().userId()).isEqualTo(userId);
        boolean named = false;
        for (JsonNode k : client.getUser(userId).path("apiKeys")) {
            named |= k.path("apiKeyId").asString().equals(apiKeyId)
                    && k.path("apiKeyName").asString().equals("legacy oauth");
        }
        assertThat(named).isTrue();

        // A token signs in once.
        KeyhavenApiException replay =
                apiError(ErrorCode.INVALID_OIDC_TOKEN, null, () -> oauth(token, target.uncompressed(), Map.of()));
        assertThat(replay.serverMessage()).isEqualTo("invalid OIDC token: oidc token has already been used");
    }

    @Test
    void theOlderOauthActivityRefusesUntrustedIssuersWrongNoncesBadKeysAndUnknownIdentities() throws Exception {
        String sub = uniqueSubject();
        newUser(List.of(claimsProvider(MAIN, "app-1", sub)));
        TargetKey target = TargetKey.generate();
        KeyhavenApiException untrusted = apiError(
                ErrorCode.INVALID_OIDC_TOKEN,
                null,
                () -> oauth(
                        token(RSA, JWSAlgorithm.RS256, UNTRUSTED, "app-1", sub, nonce(target.compressed())),
                        target.compressed(),
                        Map.of()));
        assertThat(untrusted.serverMessage()).contains("was issued by " + UNTRUSTED + ", which is not a trusted");
        KeyhavenApiException wrongNonce = apiError(
                ErrorCode.INVALID_OIDC_TOKEN,
                null,
                () -> oauth(
                        token(RSA, JWSAlgorithm.RS256, MAIN, "app-1", sub, nonce(target.compressed())),
                        target.uncompressed(),
                        Map.of()));
        assertThat(wrongNonce.serverMessage()).contains("nonce does not match");
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.targetPublicKey",
                () -> oauth(token(RSA, JWSAlgorithm.RS256, MAIN, "app-1", sub, nonce("zz")), "zz", Map.of()));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.expirationSeconds",
                () -> oauth(
                        token(RSA, JWSAlgorithm.RS256, MAIN, "app-1", sub, nonce(target.compressed())),
                        target.compressed(),
                        Map.of("expirationSeconds", "0")));
        KeyhavenApiException nobody = apiError(
                ErrorCode.NOT_FOUND,
                null,
                () -> oauth(
                        token(RSA, JWSAlgorithm.RS256, MAIN, "app-2", sub, nonce(target.compressed())),
                        target.compressed(),
                        Map.of()));
        assertThat(nobody.serverMessage())
                .isEqualTo("no user of this organization has an OAuth provider for this "
                        + "OIDC token's issuer, audience and subject");
    }

    @Test
    void aParentApiUserSignsInASubOrganizationUserWithOauth() throws Exception {
        String sub = uniqueSubject();
        ApiKeyStamper subRoot = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String subOrganizationId = client.createSubOrganization(
                        "oauth-sub-" + sub,
                        List.of(new Requests.RootUserParams(
                                "r",
                                null,
                                null,
                                List.of(Requests.ApiKeyParams.of("k", subRoot)),
                                List.of(),
                                List.of(claimsProvider(MAIN, "app-1", sub)))),
                        1)
                .result()
                .path("subOrganizationId")
                .asString();
        String userId = client.withStamper(subRoot)
                .forOrganization(subOrganizationId)
                .whoami()
                .userId();
        KeyhavenClient parentOnSub = client.forOrganization(subOrganizationId);
        TargetKey target = TargetKey.generate();
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("oidcToken", token(RSA, JWSAlgorithm.RS256, MAIN, "app-1", sub, nonce(target.compressed())));
        p.put("targetPublicKey", target.compressed());
        Activity done = parentOnSub.submit("oauth", "ACTIVITY_TYPE_OAUTH", p, "oauthResult");
        assertThat(done.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(done.organizationId()).isEqualTo(subOrganizationId);
        assertThat(done.result().path("userId").asString()).isEqualTo(userId);
        byte[] key = target.open(dev.keyhaven.crypto.bundle.TurnkeyHpke.Encrypted.ofCredentialBundle(
                done.result().path("credentialBundle").asString()));
        assertThat(client.withStamper(ApiKeyStamper.fromPrivateKey(ApiKeyStamper.Curve.P256, HEX.formatHex(key)))
                        .forOrganization(subOrganizationId)
                        .whoami()
                        .userId())
                .isEqualTo(userId);
        String type = null;
        for (JsonNode k : parentOnSub.getApiKeys(userId)) {
            if (k.path("apiKeyId")
                    .asString()
                    .equals(done.result().path("apiKeyId").asString())) {
                type = k.path("credential").path("type").asString();
            }
        }
        assertThat(type).isEqualTo("CREDENTIAL_TYPE_OAUTH_KEY_P256");
    }

    private Activity oauth(String token, String targetPublicKey, Map<String, Object> more) {
        Map<String, Object> p = new LinkedHashMap<>(more);
        p.put("oidcToken", token);
        p.put("targetPublicKey", targetPublicKey);
        return client.submit("oauth", "ACTIVITY_TYPE_OAUTH", p, "oauthResult");
    }

    // ---- OAuth providers ------------------------------------------------------------------------------------

    @Test
    void anIdentityBelongsToOneUserOnly() throws Exception {
        String sub = uniqueSubject();
        newUser(List.of(claimsProvider(MAIN, "app-1", sub)));
        KeyhavenApiException taken = apiError(() -> newUser(List.of(claimsProvider(MAIN, "app-1", sub))));
        assertThat(taken.httpStatus()).isEqualTo(400);
        assertThat(taken.turnkeyErrorCode()).isEqualTo("OAUTH_PROVIDER_ALREADY_EXISTS");
        // Nor in a sub-organization of the same organization.
        KeyhavenApiException inSub = apiError(() -> client.createSubOrganization(
                "sub-" + sub,
                List.of(new Requests.RootUserParams(
                        "r", null, null, List.of(), List.of(), List.of(claimsProvider(MAIN, "app-1", sub)))),
                1));
        assertThat(inSub.turnkeyErrorCode()).isEqualTo("OAUTH_PROVIDER_ALREADY_EXISTS");
        // Another audience is another identity.
        assertThat(newUser(List.of(claimsProvider(MAIN, "app-2", sub)))).isNotBlank();
    }

    @Test
    void registrationByTokenTakesTheIdentityFromTheVerifiedToken() throws Exception {
        String userId = newUser(List.of());
        String sub = uniqueSubject();
        Activity created = createProviders(
                userId,
                List.of(Map.of(
                        "providerName",
                        "Google",
                        "oidcToken",
                        token(EC, JWSAlgorithm.ES256, MAIN, "app-2", sub, "any-nonce"))));
        String providerId = created.result().path("providerIds").get(0).asString();
        JsonNode providers =
                client.query("get_oauth_providers", Map.of("userId", userId)).path("oauthProviders");
        assertThat(providers).hasSize(1);
        assertThat(providers.get(0).path("providerId").asString()).isEqualTo(providerId);
        assertThat(providers.get(0).path("providerName").asString()).isEqualTo("Google");
        assertThat(providers.get(0).path("issuer").asString()).isEqualTo(MAIN);
        assertThat(providers.get(0).path("audience").asString()).isEqualTo("app-2");
        assertThat(providers.get(0).path("subject").asString()).isEqualTo(sub);
        assertThat(providers.get(0).path("createdAt").path("seconds").asString())
                .isNotEmpty();
        JsonNode user = client.query("get_user", Map.of("userId", userId)).path("user");
        assertThat(user.path("oauthProviders").get(0).path("providerId").asString())
                .isEqualTo(providerId);
        JsonNode listed = client.query("get_organization", Map.of())
                .path("organizationData")
                .path("users");
        assertThat(listed.findValues("userId").stream().map(JsonNode::asString).toList())
                .contains(userId);
        for (JsonNode u : listed) {
            if (u.path("userId").asString().equals(userId)) {
                assertThat(u.path("oauthProviders").get(0).path("subject").asString())
                        .isEqualTo(sub);
            }
        }
        // The token registered the identity: it logs in.
        assertLogsIn(userId, RSA, JWSAlgorithm.RS256, MAIN, "app-2", sub);
    }

    @Test
    void badProvidersAreRefusedNamingTheField() throws Exception {
        String userId = newUser(List.of());
        String token = token(RSA, JWSAlgorithm.RS256, MAIN, "app-1", uniqueSubject(), "n");
        assertBadProvider(
                userId,
                Map.of("providerName", "x"),
                "parameters.oauthProviders[0]",
                "needs exactly one of oidcToken and oidcClaims");
        assertBadProvider(
                userId,
                Map.of(
                        "providerName",
                        "x",
                        "oidcToken",
                        token,
                        "oidcClaims",
                        Map.of("iss", MAIN, "sub", "s", "aud", "a")),
                "parameters.oauthProviders[0]",
                "needs exactly one of oidcToken and oidcClaims");
        assertBadProvider(
                userId,
                Map.of("providerName", "x", "oidcClaims", Map.of("iss", MAIN, "sub", " ", "aud", "a")),
                "parameters.oauthProviders[0].oidcClaims.sub",
                "must not be blank");
        assertBadProvider(
                userId,
                Map.of("providerName", "x", "oidcClaims", Map.of("iss", MAIN, "sub", "s")),
                "parameters.oauthProviders[0].oidcClaims.aud",
                "is required");
        assertBadProvider(
                userId, Map.of("oidcToken", token), "parameters.oauthProviders[0].providerName", "is required");
        apiError(
                ErrorCode.INVALID_OIDC_TOKEN,
                null,
                () -> createProviders(
                        userId,
                        List.of(Map.of(
                                "providerName",
                                "x",
                                "oidcToken",
                                token(RSA, JWSAlgorithm.RS256, MAIN, "app-9", "s", "n")))));
        KeyhavenApiException noUser = apiError(() ->
                createProviders(UUID.randomUUID().toString(), List.of(claimsProvider(MAIN, "app-1", uniqueSubject()))));
        assertThat(noUser.httpStatus()).isEqualTo(404);
        assertBadProvider(userId, null, "parameters.oauthProviders", "must hold at least one provider");
        assertThat(client.query("get_oauth_providers", Map.of("userId", userId)).path("oauthProviders"))
                .isEmpty();
    }

    @Test
    void theOlderVersionsRegisterProvidersByTokenOnly() throws Exception {
        String userId = newUser(List.of());
        Map<String, Object> byClaims = claimsProvider(MAIN, "app-1", uniqueSubject());
        KeyhavenApiException v1 = apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.oauthProviders[0]",
                () -> client.submit(
                        "create_oauth_providers",
                        "ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS",
                        Map.of("userId", userId, "oauthProviders", List.of(byClaims)),
                        "createOauthProvidersResult"));
        assertThat(v1.serverMessage()).isEqualTo("bad request body: parameters.oauthProviders[0] needs an oidcToken");
        Map<String, Object> user = Map.of(
                "userName",
                "v3-" + UUID.randomUUID(),
                "apiKeys",
                List.of(),
                "authenticators",
                List.of(),
                "oauthProviders",
                List.of(byClaims),
                "userTags",
                List.of());
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.users[0].oauthProviders[0]",
                () -> client.submit(
                        "create_users",
                        "ACTIVITY_TYPE_CREATE_USERS_V3",
                        Map.of("users", List.of(user)),
                        "createUsersResult"));
        Map<String, Object> rootUser = Map.of(
                "userName",
                "root",
                "apiKeys",
                List.of(),
                "authenticators",
                List.of(),
                "oauthProviders",
                List.of(byClaims));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.rootUsers[0].oauthProviders[0]",
                () -> client.submit(
                        "create_sub_organization",
                        "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7",
                        Map.of(
                                "subOrganizationName",
                                "v7-" + UUID.randomUUID(),
                                "rootUsers",
                                List.of(rootUser),
                                "rootQuorumThreshold",
                                1),
                        "createSubOrganizationResultV7"));
        // The current versions take claims as well.
        assertThat(client.submit(
                                "create_users",
                                "ACTIVITY_TYPE_CREATE_USERS_V4",
                                Map.of("users", List.of(user)),
                                "createUsersResult")
                        .status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");
    }

    @Test
    void aUserHasAtMostTenProviders() throws Exception {
        String userId = newUser(List.of());
        List<Object> ten = new java.util.ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ten.add(claimsProvider(MAIN, "app-1", uniqueSubject()));
        }
        createProviders(userId, ten);
        KeyhavenApiException eleventh = apiError(
                ErrorCode.LIMIT_EXCEEDED,
                null,
                () -> createProviders(userId, List.of(claimsProvider(MAIN, "app-1", uniqueSubject()))));
        assertThat(eleventh.serverMessage()).startsWith("user has exceeded maximum oauth providers (10)");
    }

    @Test
    void providersAreDeletedAllOrNothing() throws Exception {
        String userId = newUser(List.of(
                claimsProvider(MAIN, "app-1", uniqueSubject()), claimsProvider(MAIN, "app-1", uniqueSubject())));
        String otherUser = newUser(List.of(claimsProvider(MAIN, "app-1", uniqueSubject())));
        List<String> ids = providerIds(userId);
        String othersProvider = providerIds(otherUser).getFirst();
        String unknown = UUID.randomUUID().toString();
        KeyhavenApiException missing =
                apiError(ErrorCode.NOT_FOUND, null, () -> deleteProviders(userId, List.of(ids.getFirst(), unknown)));
        assertThat(missing.serverMessage())
                .isEqualTo("no oauth provider found with id " + unknown + " for user " + userId);
        KeyhavenApiException notTheirs =
                apiError(ErrorCode.NOT_FOUND, null, () -> deleteProviders(userId, List.of(othersProvider)));
        assertThat(notTheirs.serverMessage())
                .isEqualTo("no oauth provider found with id " + othersProvider + " for user " + userId);
        assertThat(providerIds(userId)).containsExactlyElementsOf(ids);
        Activity deleted = deleteProviders(userId, List.of(ids.getFirst()));
        assertThat(deleted.result().path("providerIds").get(0).asString()).isEqualTo(ids.getFirst());
        assertThat(providerIds(userId)).containsExactly(ids.get(1));
        assertThat(apiError(ErrorCode.BAD_REQUEST, "parameters.providerIds", () -> deleteProviders(userId, List.of()))
                        .serverMessage())
                .isEqualTo("bad request body: parameters.providerIds must name at least one OAuth provider");
        assertThat(apiError(() -> client.query("get_oauth_providers", Map.of("userId", unknown)))
                        .httpStatus())
                .isEqualTo(404);
        // Without userId: the organization's providers.
        assertThat(client.query("get_oauth_providers", Map.of())
                        .path("oauthProviders")
                        .findValuesAsString("providerId"))
                .contains(ids.get(1), othersProvider);
        // Deleting the user deletes the providers: the identity is free again.
        client.deleteUsers(List.of(otherUser));
        assertThat(client.query("get_oauth_providers", Map.of())
                        .path("oauthProviders")
                        .findValuesAsString("providerId"))
                .doesNotContain(othersProvider);
    }

    @Test
    void usersManageTheirOwnProvidersButNotOthers() throws Exception {
        ApiKeyStamper bobKey = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String bob = client.createUsers(List.of(Requests.UserParams.withApiKeys(
                        "bob-" + UUID.randomUUID(), List.of(Requests.ApiKeyParams.of("k", bobKey)))))
                .result()
                .path("userIds")
                .get(0)
                .asString();
        String carol = newUser(List.of());
        KeyhavenClient asBob = client.withStamper(bobKey);
        Activity own = asBob.submit(
                "create_oauth_providers",
                "ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2",
                Map.of("userId", bob, "oauthProviders", List.of(claimsProvider(MAIN, "app-1", uniqueSubject()))),
                "createOauthProvidersResultV2");
        assertThat(own.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        Activity others = asBob.submit(
                "create_oauth_providers",
                "ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2",
                Map.of("userId", carol, "oauthProviders", List.of(claimsProvider(MAIN, "app-1", uniqueSubject()))),
                "createOauthProvidersResultV2");
        assertThat(others.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        assertThat(others.failure().orElseThrow().message()).contains("implicit deny");
        Activity deleteOwn = asBob.submit(
                "delete_oauth_providers",
                "ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS",
                Map.of("userId", bob, "providerIds", providerIds(bob)),
                "deleteOauthProvidersResult");
        assertThat(deleteOwn.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(providerIds(bob)).isEmpty();
    }

    @Test
    void theV1CreateTypeIsAccepted() throws Exception {
        String userId = newUser(List.of());
        Activity v1 = client.submit(
                "create_oauth_providers",
                "ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS",
                Map.of(
                        "userId",
                        userId,
                        "oauthProviders",
                        List.of(Map.of(
                                "providerName",
                                "p",
                                "oidcToken",
                                token(RSA, JWSAlgorithm.RS256, MAIN, "app-1", uniqueSubject(), "n")))),
                "createOauthProvidersResult");
        assertThat(v1.result().path("providerIds")).hasSize(1);
    }

    // ---- the auth proxy ------------------------------------------------------------------------------------

    @Test
    void theProxyLogsInAnExistingUserAndRefusesAnUnknownIdentityWithoutSignUp() throws Exception {
        String config = newConfig(Map.of("signupEnabled", false));
        String sub = uniqueSubject();
        String userId = newUser(List.of(claimsProvider(MAIN, "app-1", sub)));
        TargetKey session = TargetKey.generate();
        ProxyResponse login = proxy(
                config,
                Map.of(
                        "oidcToken",
                        token(RSA, JWSAlgorithm.RS256, MAIN, "app-1", sub, nonce(session.compressed())),
                        "publicKey",
                        session.compressed()));
        assertThat(login.status()).isEqualTo(200);
        assertThat(sessionClient(session, server.organizationId()).whoami().userId())
                .isEqualTo(userId);

        TargetKey other = TargetKey.generate();
        ProxyResponse unknown = proxy(
                config,
                Map.of(
                        "oidcToken",
                        token(RSA, JWSAlgorithm.RS256, MAIN, "app-1", uniqueSubject(), nonce(other.compressed())),
                        "publicKey",
                        other.compressed()));
        assertThat(unknown.status()).isEqualTo(404);
        // Sign-up on, but not with this issuer: a generic OIDC identity needs "oidc" in enabledProviders.
        String googleOnly = newConfig(Map.of("signupEnabled", true, "enabledProviders", List.of("google")));
        ProxyResponse notOffered = proxy(
                googleOnly,
                Map.of(
                        "oidcToken",
                        token(RSA, JWSAlgorithm.RS256, MAIN, "app-1", uniqueSubject(), nonce(other.compressed())),
                        "publicKey",
                        other.compressed()));
        assertThat(notOffered.status()).isEqualTo(404);
        assertThat(notOffered.body().path("message").asString()).contains("does not allow sign-up with 'oidc'");
        ProxyResponse wrongNonce = proxy(
                config,
                Map.of(
                        "oidcToken",
                        token(RSA, JWSAlgorithm.RS256, MAIN, "app-1", sub, nonce(session.compressed())),
                        "publicKey",
                        other.compressed()));
        assertThat(wrongNonce.status()).isEqualTo(400);
        assertThat(wrongNonce.body().path("message").asString()).contains("nonce does not match");
        assertThat(proxy(config, Map.of("publicKey", other.compressed()))
                        .body()
                        .path("message")
                        .asString())
                .contains("oidcToken is required");
    }

    @Test
    void theProxySignsUpANewIdentityIntoASubOrganization() throws Exception {
        String config = newConfig(Map.of("signupEnabled", true, "enabledProviders", List.of("oidc")));
        String sub = uniqueSubject();
        TargetKey session = TargetKey.generate();
        ProxyResponse signUp = proxy(
                config,
                Map.of(
                        "oidcToken",
                        token(EC, JWSAlgorithm.ES256, MAIN, "app-1", sub, nonce(session.compressed())),
                        "publicKey",
                        session.compressed()));
        assertThat(signUp.status()).isEqualTo(200);
        JsonNode claims = sessionClaims(signUp.body().path("session").asString());
        String subOrganization = claims.path("organization_id").asString();
        assertThat(subOrganization).isNotEqualTo(server.organizationId());
        KeyhavenClient asNewUser = sessionClient(session, subOrganization);
        assertThat(asNewUser.whoami().userId()).isEqualTo(claims.path("user_id").asString());
        JsonNode providers = asNewUser.query("get_oauth_providers", Map.of()).path("oauthProviders");
        assertThat(providers.get(0).path("subject").asString()).isEqualTo(sub);

        // The next login finds the signed-up user in the sub-organization instead of signing up again.
        TargetKey next = TargetKey.generate();
        ProxyResponse again = proxy(
                config,
                Map.of(
                        "oidcToken",
                        token(RSA, JWSAlgorithm.RS256, MAIN, "app-1", sub, nonce(next.compressed())),
                        "publicKey",
                        next.compressed()));
        assertThat(sessionClaims(again.body().path("session").asString())
                        .path("organization_id")
                        .asString())
                .isEqualTo(subOrganization);
        // organizationId names where to look: the sub-organization works, the config's own organization holds no
        // such identity (and sign-up happens only without organizationId).
        TargetKey third = TargetKey.generate();
        ProxyResponse named = proxy(
                config,
                Map.of(
                        "oidcToken",
                        token(RSA, JWSAlgorithm.RS256, MAIN, "app-1", sub, nonce(third.compressed())),
                        "publicKey",
                        third.compressed(),
                        "organizationId",
                        subOrganization));
        assertThat(named.status()).isEqualTo(200);
        ProxyResponse elsewhere = proxy(
                config,
                Map.of(
                        "oidcToken",
                        token(RSA, JWSAlgorithm.RS256, MAIN, "app-1", sub, nonce(third.compressed())),
                        "publicKey",
                        third.compressed(),
                        "organizationId",
                        server.organizationId()));
        assertThat(elsewhere.status()).isEqualTo(404);
    }

    // ---- X-Stamp-Attested ----------------------------------------------------------------------------------

    @Test
    void anOidcAttestedStampSignsRequestsAsTheProvidersUser() throws Exception {
        String sub = uniqueSubject();
        String userId = newUser(List.of(claimsProvider(MAIN, "app-1", sub)));
        TargetKey key = TargetKey.generate();
        String token = token(RSA, JWSAlgorithm.RS256, MAIN, "app-1", sub, nonce(key.compressed()));
        KeyhavenClient attested = client.withStamper(attested(key, token, AttestedStamps.OIDC));
        assertThat(attested.whoami().userId()).isEqualTo(userId);
        // Not consumed: the same attestation signs the next request.
        assertThat(attested.query("get_user", Map.of("userId", userId))
                        .path("user")
                        .path("userId")
                        .asString())
                .isEqualTo(userId);
    }

    @Test
    void anOidcAttestedStampLogsInTheRootUserOfASignedUpSubOrganization() throws Exception {
        String sub = uniqueSubject();
        Activity created = client.createSubOrganization(
                "oidc-" + sub,
                List.of(new Requests.RootUserParams(
                        "r",
                        null,
                        null,
                        List.of(),
                        List.of(),
                        List.of(Map.of(
                                "providerName",
                                "Google",
                                "oidcToken",
                                token(EC, JWSAlgorithm.ES256, MAIN, "app-1", sub, "registration"))))),
                1);
        String subOrganization = created.result().path("subOrganizationId").asString();
        TargetKey key = TargetKey.generate();
        String token = token(RSA, JWSAlgorithm.RS256, MAIN, "app-1", sub, nonce(key.compressed()));
        // As the SDK's OAuth flow does: stamp_login for the attested key, stamped by that key and its OIDC token.
        KeyhavenClient attested =
                client.withStamper(attested(key, token, AttestedStamps.OIDC)).forOrganization(subOrganization);
        Activity login = attested.submit(
                "stamp_login", "ACTIVITY_TYPE_STAMP_LOGIN", Map.of("publicKey", key.compressed()), "stampLoginResult");
        assertThat(login.status()).as(String.valueOf(login.failure())).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        JsonNode claims = sessionClaims(login.result().path("session").asString());
        assertThat(claims.path("organization_id").asString()).isEqualTo(subOrganization);
        assertThat(sessionClient(key, subOrganization).whoami().userId())
                .isEqualTo(claims.path("user_id").asString());
        // whoami against the parent finds the sub-organization holding the identity, as for API keys.
        KeyhavenClient.Whoami viaParent =
                client.withStamper(attested(key, token, AttestedStamps.OIDC)).whoami();
        assertThat(viaParent.organizationId()).isEqualTo(subOrganization);
    }

    @Test
    void policiesSeeAnOidcAttestedKeyAsAnOauthCredential() throws Exception {
        String sub = uniqueSubject();
        ApiKeyStamper apiKey = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String userId = client.createUsers(List.of(new Requests.UserParams(
                        "user-" + UUID.randomUUID(),
                        null,
                        null,
                        List.of(Requests.ApiKeyParams.of("k", apiKey)),
                        List.of(),
                        List.of(claimsProvider(MAIN, "app-1", sub)),
                        List.of())))
                .result()
                .path("userIds")
                .get(0)
                .asString();
        Activity policy = client.createPolicy(
                "oauth keys tag " + sub,
                "EFFECT_ALLOW",
                "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
                "credentials.any(c, c.type == " + "'CREDENTIAL_TYPE_OAUTH_KEY_P256' && c.user_id == '" + userId + "')",
                "",
                null);
        assertThat(policy.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        TargetKey key = TargetKey.generate();
        KeyhavenClient attested = client.withStamper(attested(
                key, token(RSA, JWSAlgorithm.RS256, MAIN, "app-1", sub, nonce(key.compressed())), AttestedStamps.OIDC));
        Activity byOauthKey = attested.submit(
                "create_user_tag",
                "ACTIVITY_TYPE_CREATE_USER_TAG",
                Map.of("userTagName", "oauth-" + sub, "userIds", List.of()),
                "createUserTagResult");
        assertThat(byOauthKey.status()).as(String.valueOf(byOauthKey.failure())).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        Activity byApiKey = client.withStamper(apiKey)
                .submit(
                        "create_user_tag",
                        "ACTIVITY_TYPE_CREATE_USER_TAG",
                        Map.of("userTagName", "api-" + sub, "userIds", List.of()),
                        "createUserTagResult");
        assertThat(byApiKey.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
    }

    @Test
    void oidcAttestedStampsThatDoNotHoldAreRefusedWith401() throws Exception {
        String sub = uniqueSubject();
        newUser(List.of(claimsProvider(MAIN, "app-1", sub)));
        TargetKey key = TargetKey.generate();
        KeyhavenApiException otherKey = apiError(
                ErrorCode.SIGNATURE_INVALID,
                null,
                () -> client.withStamper(attested(
                                key,
                                token(
                                        RSA,
                                        JWSAlgorithm.RS256,
                                        MAIN,
                                        "app-1",
                                        sub,
                                        nonce(TargetKey.generate().compressed())),
                                AttestedStamps.OIDC))
                        .whoami());
        assertThat(otherKey.serverMessage())
                .isEqualTo("could not verify attested stamp: invalid OIDC token: the "
                        + "token nonce does not match: it must be the lowercase hex SHA-256 of the session public key");
        KeyhavenApiException untrusted = apiError(() -> client.withStamper(attested(
                        key,
                        token(RSA, JWSAlgorithm.RS256, UNTRUSTED, "app-1", sub, nonce(key.compressed())),
                        AttestedStamps.OIDC))
                .whoami());
        assertThat(untrusted.httpStatus()).isEqualTo(401);
        KeyhavenApiException nobody = apiError(
                ErrorCode.CREDENTIAL_NOT_FOUND,
                null,
                () -> client.withStamper(attested(
                                key,
                                token(RSA, JWSAlgorithm.RS256, MAIN, "app-2", sub, nonce(key.compressed())),
                                AttestedStamps.OIDC))
                        .whoami());
        assertThat(nobody.serverMessage())
                .isEqualTo("no user of the organization or its parent organization has "
                        + "an OAuth provider for the attested OIDC identity");
        String valid = token(RSA, JWSAlgorithm.RS256, MAIN, "app-1", sub, nonce(key.compressed()));
        Stamper forged = body ->
                attested(key, valid, AttestedStamps.OIDC).stamp("{\"other\":1}".getBytes(StandardCharsets.UTF_8));
        KeyhavenApiException badSignature =
                apiError(() -> client.withStamper(forged).whoami());
        assertThat(badSignature.httpStatus()).isEqualTo(401);
        KeyhavenApiException malformed = apiError(
                ErrorCode.MALFORMED_STAMP,
                null,
                () -> client.withStamper(body -> new Stamper.Stamp("X-Stamp-Attested", "{\"publicKey\":\"02\"}"))
                        .whoami());
        assertThat(malformed.serverMessage())
                .isEqualTo("malformed activity stamp: could not extract attested stamp " + "(missing signature)");
        KeyhavenApiException scheme = apiError(
                ErrorCode.MALFORMED_STAMP,
                null,
                () -> client.withStamper(attested(key, valid, "STAMP_ATTESTED_SCHEME_OTHER"))
                        .whoami());
        assertThat(scheme.serverMessage())
                .startsWith("malformed activity stamp: could not extract attested stamp " + "(unsupported scheme (");
    }

    @Test
    void aVerificationTokenAttestedStampSignsAsTheUserWithTheContact() throws Exception {
        String email = "oidc-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
        String userId = client.createUsers(List.of(new Requests.UserParams(
                        "u-" + UUID.randomUUID(), email, null, List.of(), List.of(), List.of(), List.of())))
                .result()
                .path("userIds")
                .get(0)
                .asString();
        TargetKey key = TargetKey.generate();
        String token = verificationToken(email, key);
        // Plain JSON (what the docs describe) as well as base64url (what the SDK sends).
        KeyhavenClient attested = client.withStamper(body -> {
            Stamper.Stamp stamp =
                    attested(key, token, AttestedStamps.VERIFICATION_TOKEN).stamp(body);
            return new Stamper.Stamp(
                    stamp.headerName(),
                    new String(Base64.getUrlDecoder().decode(stamp.headerValue()), StandardCharsets.UTF_8));
        });
        assertThat(attested.whoami().userId()).isEqualTo(userId);
        assertThat(client.withStamper(attested(key, token, AttestedStamps.VERIFICATION_TOKEN))
                        .whoami()
                        .userId())
                .isEqualTo(userId);
        KeyhavenApiException otherKey = apiError(
                ErrorCode.SIGNATURE_INVALID,
                null,
                () -> client.withStamper(attested(TargetKey.generate(), token, AttestedStamps.VERIFICATION_TOKEN))
                        .whoami());
        assertThat(otherKey.serverMessage())
                .isEqualTo("could not verify attested stamp: the verification token was "
                        + "not issued to the stamp's public key");
        KeyhavenApiException forged =
                apiError(() -> client.withStamper(attested(key, token + "x", AttestedStamps.VERIFICATION_TOKEN))
                        .whoami());
        assertThat(forged.httpStatus()).isEqualTo(401);
        clock.advance(Duration.ofHours(2));
        client = root.withClock(clock);
        KeyhavenApiException expired = apiError(
                ErrorCode.SIGNATURE_INVALID,
                null,
                () -> client.withStamper(attested(key, token, AttestedStamps.VERIFICATION_TOKEN))
                        .whoami());
        assertThat(expired.serverMessage())
                .isEqualTo("could not verify attested stamp: the verification token has " + "expired");
    }

    // ---- helpers -------------------------------------------------------------------------------------------

    private String verificationToken(String email, TargetKey key) throws Exception {
        smtp.purgeEmailFromAllMailboxes();
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("otpType", "OTP_TYPE_EMAIL");
        p.put("contact", email);
        p.put("appName", "Acme");
        Activity init = client.submit("init_otp", "ACTIVITY_TYPE_INIT_OTP_V3", p, "initOtpResultV2");
        String signer = Bundles.discoveredKey(server.baseUrl(), "/public/v1/discovery/otp-signer");
        String encrypted = Bundles.encryptOtpCode(
                init.result().path("otpEncryptionTargetBundle").asString(),
                signer,
                EmailedCodes.latest(smtp),
                key.compressed());
        return client.submit(
                        "verify_otp",
                        "ACTIVITY_TYPE_VERIFY_OTP_V2",
                        Map.of("otpId", init.result().path("otpId").asString(), "encryptedOtpBundle", encrypted),
                        "verifyOtpResult")
                .result()
                .path("verificationToken")
                .asString();
    }

    private static String uniqueSubject() {
        return "sub-" + UUID.randomUUID();
    }

    /** The nonce the wallet kits compute: lowercase hex SHA-256 of the key's hex string as sent. */
    private static String nonce(String publicKeyHex) {
        return HEX.formatHex(Digests.sha256(publicKeyHex.getBytes(StandardCharsets.UTF_8)));
    }

    private static Map<String, Object> claimsProvider(String iss, String aud, String sub) {
        return Map.of("providerName", "provider " + iss, "oidcClaims", Map.of("iss", iss, "aud", aud, "sub", sub));
    }

    /** A user with the providers given (and an API key when there are none, so it has a credential). */
    private String newUser(List<Object> providers) {
        List<Requests.ApiKeyParams> keys = providers.isEmpty()
                ? List.of(Requests.ApiKeyParams.of("k", TestServer.newKey(ApiKeyStamper.Curve.P256)))
                : List.of();
        return client.createUsers(List.of(new Requests.UserParams(
                        "user-" + UUID.randomUUID(), null, null, keys, List.of(), providers, List.of())))
                .result()
                .path("userIds")
                .get(0)
                .asString();
    }

    private Activity createProviders(String userId, List<Object> providers) {
        return client.submit(
                "create_oauth_providers",
                "ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2",
                Map.of("userId", userId, "oauthProviders", providers),
                "createOauthProvidersResultV2");
    }

    private Activity deleteProviders(String userId, List<String> providerIds) {
        return client.submit(
                "delete_oauth_providers",
                "ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS",
                Map.of("userId", userId, "providerIds", providerIds),
                "deleteOauthProvidersResult");
    }

    private List<String> providerIds(String userId) {
        return client.query("get_oauth_providers", Map.of("userId", userId))
                .path("oauthProviders")
                .findValuesAsString("providerId");
    }

    /** Creating {@code provider} ({@code null}: none) fails with a 400 saying {@code problem} of {@code field}. */
    private void assertBadProvider(String userId, Map<String, Object> provider, String field, String problem) {
        KeyhavenApiException bad = apiError(
                ErrorCode.BAD_REQUEST,
                field,
                () -> createProviders(userId, provider == null ? List.of() : List.of(provider)));
        assertThat(bad.serverMessage()).isEqualTo("bad request body: " + field + " " + problem);
    }

    private Activity oauthLogin(String token, String publicKey) {
        return client.submit(
                "oauth_login",
                "ACTIVITY_TYPE_OAUTH_LOGIN",
                Map.of("oidcToken", token, "publicKey", publicKey),
                "oauthLoginResult");
    }

    /** oauth_login with a fresh session key and a token of this identity; the key then stamps as {@code userId}. */
    private void assertLogsIn(String userId, JWK key, JWSAlgorithm algorithm, String iss, String aud, String sub) {
        TargetKey session = TargetKey.generate();
        oauthLogin(token(key, algorithm, iss, aud, sub, nonce(session.compressed())), session.compressed());
        assertThat(sessionClient(session, server.organizationId()).whoami().userId())
                .isEqualTo(userId);
    }

    private void assertInvalidLogin(String token, TargetKey session, String message) {
        KeyhavenApiException refused =
                apiError(ErrorCode.INVALID_OIDC_TOKEN, null, () -> oauthLogin(token, session.compressed()));
        assertThat(refused.serverMessage())
                .startsWith("invalid OIDC token: ")
                .contains(message)
                .doesNotContain(token);
    }

    private KeyhavenClient sessionClient(TargetKey session, String organizationId) {
        return client.withStamper(
                        ApiKeyStamper.fromPrivateKey(ApiKeyStamper.Curve.P256, HEX.formatHex(session.privateKey())))
                .forOrganization(organizationId);
    }

    private static JsonNode sessionClaims(String jwt) {
        return JSON.readTree(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]));
    }

    private JWTClaimsSet.Builder claims(String iss, String aud, String sub, String nonce) {
        Instant now = clock.instant();
        return new JWTClaimsSet.Builder()
                .issuer(iss)
                .audience(aud)
                .subject(sub)
                .claim("nonce", nonce)
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plusSeconds(600)))
                .jwtID(UUID.randomUUID().toString());
    }

    private String token(JWK key, JWSAlgorithm algorithm, String iss, String aud, String sub, String nonce) {
        return signed(key, algorithm, claims(iss, aud, sub, nonce).build());
    }

    private String newConfig(Map<String, Object> settings) {
        Activity created = client.submit(
                "update_auth_proxy_config",
                "ACTIVITY_TYPE_UPDATE_AUTH_PROXY_CONFIG",
                settings,
                "updateAuthProxyConfigResult");
        assertThat(created.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        return created.result().path("configId").asString();
    }

    private record ProxyResponse(int status, JsonNode body) {}

    private ProxyResponse proxy(String configId, Map<String, Object> body) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.authProxyUrl() + "/v1/oauth_login"))
                .header("Content-Type", "application/json")
                .header("X-Auth-Proxy-Config-ID", configId)
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                .build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return new ProxyResponse(response.statusCode(), JSON.readTree(response.body()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
