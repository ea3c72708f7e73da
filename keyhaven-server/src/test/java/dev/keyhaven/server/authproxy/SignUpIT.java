package dev.keyhaven.server.authproxy;

import static dev.keyhaven.server.testing.AttestedStamps.attested;
import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SigningKey;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.app.KeyhavenConfig;
import dev.keyhaven.server.app.OtpSettings;
import dev.keyhaven.server.custody.EcdsaSignatures;
import dev.keyhaven.server.mail.MailSettings;
import dev.keyhaven.server.oidc.IssuersFile;
import dev.keyhaven.server.testing.AttestedStamps;
import dev.keyhaven.server.testing.Bundles;
import dev.keyhaven.server.testing.Bundles.TargetKey;
import dev.keyhaven.server.testing.EmailedCodes;
import dev.keyhaven.server.testing.MutableClock;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.SoftwareAuthenticator;
import dev.keyhaven.server.testing.TestServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
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
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code /v1/signup_v2} and {@code /v1/signup} over real HTTP, SMTP (GreenMail) and a local OIDC issuer: each
 * credential the official clients sign up with (a verified email with its client signature, a passkey with the
 * temporary API key, a wallet's secp256k1 or Ed25519 key, OAuth providers), then the sign-in core does next; and the
 * refusals, each by code and field path.
 */
class SignUpIT extends OnBothStores {
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final HexFormat HEX = HexFormat.of();
    private static final String ORIGIN = "https://app.example.com";
    private static final String RP_ID = "example.com";
    private static final String ISSUER = "https://accounts.signup.test";
    private static final String AUDIENCE = "signup-app";
    private static final ECKey ISSUER_KEY = issuerKey();

    private final MutableClock clock = MutableClock.ticking();
    private final HttpClient http = HttpClient.newHttpClient();
    private GreenMail smtp;
    private KeyhavenClient client;
    private String config;

    @Override
    protected Clock clock() {
        return clock;
    }

    @Override
    protected KeyhavenConfig configure(KeyhavenConfig defaults) {
        if (smtp == null) {
            smtp = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
            smtp.start();
        }
        try {
            Path directory = Files.createDirectories(defaults.dataDirectory().resolve("oidc-issuers"));
            Files.writeString(directory.resolve("signup.jwks.json"), new JWKSet(ISSUER_KEY.toPublicJWK()).toString());
            Path file = directory.resolve("issuers.json");
            Files.writeString(file, """
                    [{"issuer": "%s", "jwksFile": "signup.jwks.json", "audiences": ["%s"]}]
                    """.formatted(ISSUER, AUDIENCE));
            return defaults.withOidcIssuers(IssuersFile.read(file))
                    .withWebAuthnOrigins(List.of(ORIGIN))
                    .withOtp(OtpSettings.defaults()
                            .withAuthProxyPort(OptionalInt.of(0))
                            .withRateLimits(50, 500, Duration.ofMinutes(15)))
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

    @BeforeEach
    void freshConfig() throws Exception {
        smtp.purgeEmailFromAllMailboxes();
        client = root.withClock(clock);
        if (config == null || !server.keyhaven().authProxyConfigs().stream().anyMatch(c -> c.id().equals(config))) {
            // Every method the tests below sign up with: a generic OIDC issuer is "oidc" (SignUpMethods).
            config = newConfig(Map.of(
                    "signupEnabled",
                    true,
                    "emailEnabled",
                    true,
                    "enabledProviders",
                    List.of("passkey", "wallet", "oidc")));
        }
    }

    @AfterAll
    void stopSmtp() {
        if (smtp != null) {
            smtp.stop();
        }
    }

    // ---- the credential kinds ------------------------------------------------------------------------------

    @Test
    void aVerifiedEmailSignsUpWithAWalletAndTheSameTokenThenLogsIn() throws Exception {
        String email = uniqueEmail();
        TargetKey key = TargetKey.generate();
        String token = verifiedToken(config, email, key);
        Map<String, Object> body = otpSignUp(email, token);
        body.put(
                "wallet",
                Map.of(
                        "walletName",
                        "Main",
                        "accounts",
                        List.of(Map.of(
                                "curve", "CURVE_SECP256K1",
                                "pathFormat", "PATH_FORMAT_BIP32",
                                "path", "m/44'/60'/0'/0/0",
                                "addressFormat", "ADDRESS_FORMAT_ETHEREUM"))));
        sign(body, key, "signupV2");

        Response created = proxy("signup_v2", config, body);

        assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
        String organizationId = created.body().path("organizationId").asString();
        String userId = created.body().path("userId").asString();
        assertThat(organizationId).isNotEqualTo(server.organizationId());
        JsonNode wallet = created.body().path("wallet");
        assertThat(wallet.path("walletId").asString()).isNotEmpty();
        assertThat(wallet.path("addresses")).hasSize(1);
        assertThat(wallet.path("addresses").get(0).asString()).startsWith("0x");
        // core's next step: stamp_login with the same token as an attested stamp, addressed to the new organization.
        KeyhavenClient attested = client.withStamper(attested(key, token, AttestedStamps.VERIFICATION_TOKEN))
                .forOrganization(organizationId);
        Activity login = attested.submit(
                "stamp_login", "ACTIVITY_TYPE_STAMP_LOGIN", Map.of("publicKey", key.compressed()), "stampLoginResult");
        assertThat(login.status()).as(String.valueOf(login.failure())).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        KeyhavenClient session = stamped(key).forOrganization(organizationId);
        assertThat(session.whoami().userId()).isEqualTo(userId);
        JsonNode user = session.query("get_user", Map.of("userId", userId)).path("user");
        assertThat(user.path("userEmail").asString()).isEqualTo(email);
        assertThat(user.path("userName").asString()).isEqualTo(email);
        assertThat(client.query("get_organization", Map.of("organizationId", organizationId))
                        .path("organizationData")
                        .path("name")
                        .asString())
                .isEqualTo("Acme " + email);
        // The contact now has an account: signing it up again is a conflict, whatever the token.
        String again = verifiedToken(config, email, key);
        Map<String, Object> twice = otpSignUp(email, again);
        sign(twice, key, "signupV2");
        assertError(proxy("signup_v2", config, twice), ErrorCode.CONFLICT, "userEmail");
    }

    @Test
    void aPasskeySignsUpWithTheTemporaryKeyThatThenStamps() {
        SoftwareAuthenticator passkey = SoftwareAuthenticator.create(ORIGIN, RP_ID);
        ApiKeyStamper temporary = TestServer.newKey(ApiKeyStamper.Curve.P256);
        Map<String, Object> body = passkeySignUp(passkey, temporary, SoftwareAuthenticator.Tamper.NOTHING);

        Response created = proxy("signup_v2", config, body);

        assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
        String organizationId = created.body().path("organizationId").asString();
        assertThat(created.body().has("wallet")).isFalse();
        KeyhavenClient viaTemporary = client.withStamper(temporary).forOrganization(organizationId);
        assertThat(viaTemporary.whoami().userId())
                .isEqualTo(created.body().path("userId").asString());
        KeyhavenClient viaPasskey = client.withStamper(passkey).forOrganization(organizationId);
        assertThat(viaPasskey.whoami().userId())
                .isEqualTo(created.body().path("userId").asString());
        // The same passkey cannot sign up a second account.
        assertError(
                proxy(
                        "signup_v2",
                        config,
                        passkeySignUp(
                                passkey,
                                TestServer.newKey(ApiKeyStamper.Curve.P256),
                                SoftwareAuthenticator.Tamper.NOTHING)),
                ErrorCode.CONFLICT,
                "authenticators[0].attestation.credentialId");
    }

    @Test
    void aPasskeyWhoseAttestationDoesNotVerifyIsRefused() {
        SoftwareAuthenticator passkey = SoftwareAuthenticator.create(ORIGIN, RP_ID);
        Response refused = proxy(
                "signup_v2",
                config,
                passkeySignUp(
                        passkey, TestServer.newKey(ApiKeyStamper.Curve.P256), SoftwareAuthenticator.Tamper.SIGNATURE));
        assertError(refused, ErrorCode.BAD_REQUEST, "authenticators[0].attestation.attestationObject");
    }

    @Test
    void aWalletsKeySignsUpOnceAndThenSignsInThroughTheParent() {
        for (ApiKeyStamper.Curve curve : List.of(ApiKeyStamper.Curve.SECP256K1, ApiKeyStamper.Curve.ED25519)) {
            ApiKeyStamper wallet = TestServer.newKey(curve);
            Map<String, Object> body = emptySignUp();
            body.put(
                    "apiKeys",
                    List.of(Map.of(
                            "apiKeyName",
                            "wallet-auth:" + wallet.publicKey(),
                            "publicKey",
                            wallet.publicKey(),
                            "curveType",
                            curve.curveType())));

            Response created = proxy("signup_v2", config, body);

            assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
            // loginOrSignupWithWallet stamps the parent: the key finds its sub-organization.
            KeyhavenClient.Whoami whoami = client.withStamper(wallet).whoami();
            assertThat(whoami.organizationId())
                    .isEqualTo(created.body().path("organizationId").asString());
            assertThat(whoami.userId()).isEqualTo(created.body().path("userId").asString());
            assertError(proxy("signup_v2", config, body), ErrorCode.CONFLICT, "apiKeys[0].publicKey");
        }
    }

    @Test
    void oauthProvidersSignUpByTokenAndClaimsAndOnlyOnce() {
        String subject = "sub-" + UUID.randomUUID();
        Map<String, Object> body = emptySignUp();
        body.put(
                "oauthProviders",
                List.of(
                        Map.of("providerName", "Google", "oidcToken", idToken(subject)),
                        Map.of(
                                "providerName",
                                "Google (secondary)",
                                "oidcClaims",
                                Map.of("iss", ISSUER, "sub", subject, "aud", "other-client"))));

        Response created = proxy("signup_v2", config, body);

        assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
        String organizationId = created.body().path("organizationId").asString();
        JsonNode providers = client.forOrganization(organizationId)
                .query(
                        "get_oauth_providers",
                        Map.of("userId", created.body().path("userId").asString()))
                .path("oauthProviders");
        assertThat(providers).hasSize(2);
        // The identity now belongs to an account.
        Map<String, Object> again = emptySignUp();
        again.put("oauthProviders", List.of(Map.of("providerName", "Google", "oidcToken", idToken(subject))));
        assertError(proxy("signup_v2", config, again), ErrorCode.OAUTH_PROVIDER_ALREADY_EXISTS, null);
        // The older /v1/signup takes tokens only.
        Map<String, Object> legacy = emptySignUp();
        legacy.put(
                "oauthProviders",
                List.of(Map.of("providerName", "X", "oidcClaims", Map.of("iss", ISSUER, "sub", "s", "aud", AUDIENCE))));
        assertError(proxy("signup", config, legacy), ErrorCode.BAD_REQUEST, "oauthProviders[0]");
        Map<String, Object> untrusted = emptySignUp();
        untrusted.put("oauthProviders", List.of(Map.of("providerName", "X", "oidcToken", "not.a.token")));
        assertError(proxy("signup_v2", config, untrusted), ErrorCode.INVALID_OIDC_TOKEN, null);
    }

    @Test
    void eachSignUpMethodNeedsItsProviderInTheConfig() throws Exception {
        // No enabledProviders: sign-up by email code only, everything else refused naming the credential.
        String emailOnly = newConfig(Map.of("signupEnabled", true, "emailEnabled", true));
        SoftwareAuthenticator passkey = SoftwareAuthenticator.create(ORIGIN, RP_ID);
        Map<String, Object> passkeyBody = passkeySignUp(
                passkey, TestServer.newKey(ApiKeyStamper.Curve.P256), SoftwareAuthenticator.Tamper.NOTHING);
        assertError(proxy("signup_v2", emailOnly, passkeyBody), ErrorCode.BAD_REQUEST, "authenticators");
        for (ApiKeyStamper.Curve curve : List.of(ApiKeyStamper.Curve.SECP256K1, ApiKeyStamper.Curve.P256)) {
            // A wallet's key, and a P-256 key with nothing else: both sign up by key, which is "wallet".
            ApiKeyStamper key = TestServer.newKey(curve);
            Map<String, Object> body = emptySignUp();
            body.put(
                    "apiKeys",
                    List.of(Map.of("apiKeyName", "k", "publicKey", key.publicKey(), "curveType", curve.curveType())));
            assertError(proxy("signup_v2", emailOnly, body), ErrorCode.BAD_REQUEST, "apiKeys[0]");
        }
        Map<String, Object> oauth = emptySignUp();
        oauth.put(
                "oauthProviders",
                List.of(Map.of("providerName", "Google", "oidcToken", idToken("sub-" + UUID.randomUUID()))));
        assertError(proxy("signup_v2", emailOnly, oauth), ErrorCode.BAD_REQUEST, "oauthProviders[0]");
        String email = uniqueEmail();
        TargetKey target = TargetKey.generate();
        Map<String, Object> otp = otpSignUp(email, verifiedToken(emailOnly, email, target));
        sign(otp, target, "signupV2");
        Response byCode = proxy("signup_v2", emailOnly, otp);
        assertThat(byCode.status()).as(byCode.body().toString()).isEqualTo(200);

        // Passkeys only: the passkey signs up, its temporary P-256 key riding along.
        String passkeysOnly = newConfig(Map.of("signupEnabled", true, "enabledProviders", List.of("passkey")));
        Response byPasskey = proxy("signup_v2", passkeysOnly, passkeyBody);
        assertThat(byPasskey.status()).as(byPasskey.body().toString()).isEqualTo(200);

        // Google by its client id: the token whose audience is that id signs up; another audience of the same
        // issuer is a generic OIDC identity, which this config does not offer.
        String google = newConfig(Map.of(
                "signupEnabled",
                true,
                "enabledProviders",
                List.of("google"),
                "oauthClientIds",
                Map.of("google", AUDIENCE)));
        Response byGoogle = proxy("signup_v2", google, oauth);
        assertThat(byGoogle.status()).as(byGoogle.body().toString()).isEqualTo(200);
        Map<String, Object> otherAudience = emptySignUp();
        otherAudience.put(
                "oauthProviders",
                List.of(Map.of(
                        "providerName",
                        "Other",
                        "oidcClaims",
                        Map.of("iss", ISSUER, "sub", "sub-" + UUID.randomUUID(), "aud", "other-client"))));
        assertError(proxy("signup_v2", google, otherAudience), ErrorCode.BAD_REQUEST, "oauthProviders[0]");
    }

    @Test
    void theLegacySignupChecksTheSignatureUnderItsOwnKey() throws Exception {
        String email = uniqueEmail();
        TargetKey key = TargetKey.generate();
        String token = verifiedToken(config, email, key);
        Map<String, Object> body = otpSignUp(email, token);
        sign(body, key, "signupV2");
        assertError(proxy("signup", config, body), ErrorCode.BAD_REQUEST, "clientSignature.message");
        sign(body, key, "signup");
        Response created = proxy("signup", config, body);
        assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
    }

    // ---- refusals ------------------------------------------------------------------------------------------

    @Test
    void aSignUpWithoutCredentialsIsRefused() {
        assertError(proxy("signup_v2", config, emptySignUp()), ErrorCode.BAD_REQUEST, null);
        assertError(proxy("signup_v2", config, Map.of()), ErrorCode.BAD_REQUEST, null);
    }

    @Test
    void aConfigWithoutSignUpOrWithoutTheChannelRefuses() throws Exception {
        String closed = newConfig(Map.of("signupEnabled", false, "emailEnabled", true));
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.SECP256K1);
        Map<String, Object> body = emptySignUp();
        body.put(
                "apiKeys",
                List.of(Map.of(
                        "apiKeyName",
                        "k",
                        "publicKey",
                        key.publicKey(),
                        "curveType",
                        key.curve().curveType())));
        assertError(proxy("signup_v2", closed, body), ErrorCode.BAD_REQUEST, null);
        // A token proving an email, through a config of the same organization that has email sign-in off.
        String email = uniqueEmail();
        TargetKey target = TargetKey.generate();
        String token = verifiedToken(config, email, target);
        String noEmail = newConfig(Map.of("signupEnabled", true, "emailEnabled", false));
        Map<String, Object> otp = otpSignUp(email, token);
        sign(otp, target, "signupV2");
        assertError(proxy("signup_v2", noEmail, otp), ErrorCode.BAD_REQUEST, "verificationToken");
    }

    @Test
    void aContactNeedsItsOwnUnexpiredTokenOfThisServer() throws Exception {
        String email = uniqueEmail();
        Map<String, Object> unproven = emptySignUp();
        unproven.put("userEmail", email);
        assertError(proxy("signup_v2", config, unproven), ErrorCode.BAD_REQUEST, "userEmail");

        TargetKey key = TargetKey.generate();
        String token = verifiedToken(config, email, key);
        Map<String, Object> other = otpSignUp(uniqueEmail(), token);
        sign(other, key, "signupV2");
        assertError(proxy("signup_v2", config, other), ErrorCode.BAD_REQUEST, "userEmail");

        Map<String, Object> phone = otpSignUp(email, token);
        phone.put("userPhoneNumber", "+15551234567");
        sign(phone, key, "signupV2");
        assertError(proxy("signup_v2", config, phone), ErrorCode.BAD_REQUEST, "userPhoneNumber");

        String[] parts = token.split("\\.");
        String forged = parts[0] + "." + parts[1] + "." + parts[2].substring(0, parts[2].length() - 4) + "AAAA";
        assertError(proxy("signup_v2", config, otpSignUp(email, forged)), ErrorCode.BAD_REQUEST, "verificationToken");

        clock.advance(Duration.ofHours(1).plusMinutes(1));
        Map<String, Object> late = otpSignUp(email, token);
        sign(late, key, "signupV2");
        assertError(proxy("signup_v2", config, late), ErrorCode.BAD_REQUEST, "verificationToken");
    }

    @Test
    void theClientSignatureIsRequiredAndMustCoverThisRequest() throws Exception {
        String email = uniqueEmail();
        TargetKey key = TargetKey.generate();
        String token = verifiedToken(config, email, key);

        assertError(proxy("signup_v2", config, otpSignUp(email, token)), ErrorCode.BAD_REQUEST, "clientSignature");

        Map<String, Object> otherKey = otpSignUp(email, token);
        sign(otherKey, TargetKey.generate(), "signupV2");
        assertError(proxy("signup_v2", config, otherKey), ErrorCode.BAD_REQUEST, "clientSignature.publicKey");

        // Signed, then an API key slipped in: the message no longer matches the request.
        Map<String, Object> swapped = otpSignUp(email, token);
        sign(swapped, key, "signupV2");
        ApiKeyStamper intruder = TestServer.newKey(ApiKeyStamper.Curve.P256);
        swapped.put(
                "apiKeys",
                List.of(Map.of(
                        "apiKeyName", "x", "publicKey", intruder.publicKey(), "curveType", "API_KEY_CURVE_P256")));
        assertError(proxy("signup_v2", config, swapped), ErrorCode.BAD_REQUEST, "clientSignature.message");

        Map<String, Object> forged = otpSignUp(email, token);
        sign(forged, key, "signupV2");
        @SuppressWarnings("unchecked")
        Map<String, Object> signature = (Map<String, Object>) forged.get("clientSignature");
        String hex = (String) signature.get("signature");
        signature.put("signature", (hex.charAt(0) == '0' ? "1" : "0") + hex.substring(1));
        assertError(proxy("signup_v2", config, forged), ErrorCode.BAD_REQUEST, "clientSignature.signature");

        Map<String, Object> scheme = otpSignUp(email, token);
        sign(scheme, key, "signupV2");
        @SuppressWarnings("unchecked")
        Map<String, Object> schemeSignature = (Map<String, Object>) scheme.get("clientSignature");
        schemeSignature.put("scheme", "CLIENT_SIGNATURE_SCHEME_UNSPECIFIED");
        assertError(proxy("signup_v2", config, scheme), ErrorCode.BAD_REQUEST, "clientSignature.scheme");

        // A signature without the token it would sign for.
        ApiKeyStamper apiKey = TestServer.newKey(ApiKeyStamper.Curve.P256);
        Map<String, Object> noToken = emptySignUp();
        noToken.put(
                "apiKeys",
                List.of(Map.of("apiKeyName", "k", "publicKey", apiKey.publicKey(), "curveType", "API_KEY_CURVE_P256")));
        noToken.put("clientSignature", signature);
        assertError(proxy("signup_v2", config, noToken), ErrorCode.BAD_REQUEST, "clientSignature");

        // None of the refusals used the token up.
        Map<String, Object> good = otpSignUp(email, token);
        sign(good, key, "signupV2");
        assertThat(proxy("signup_v2", config, good).status()).isEqualTo(200);
    }

    // ---- helpers -------------------------------------------------------------------------------------------

    private record Response(int status, JsonNode body) {}

    private Response proxy(String operation, String configId, Map<String, Object> body) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.authProxyUrl() + "/v1/" + operation))
                .header("Content-Type", "application/json")
                .header("X-Auth-Proxy-Config-ID", configId)
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                .build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), JSON.readTree(response.body()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The error's status, gRPC code and Turnkey code are {@code code}'s, and it blames {@code field} (or none). */
    private static void assertError(Response response, ErrorCode code, String field) {
        List<String> fields = new ArrayList<>();
        response.body()
                .path("details")
                .forEach(d -> d.path("fieldViolations")
                        .forEach(v -> fields.add(v.path("field").asString())));
        assertThat(List.of(
                        response.status(),
                        response.body().path("code").asInt(),
                        response.body().path("turnkeyErrorCode").asString(),
                        fields))
                .as("status, code, turnkeyErrorCode and fields of %s", response.body())
                .containsExactly(
                        code.httpStatus(),
                        code.grpc().number(),
                        code.turnkeyErrorCode(),
                        field == null ? List.of() : List.of(field));
    }

    private static String uniqueEmail() {
        return "signup-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
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

    /** otp_init_v2 and otp_verify_v2 through the proxy, as core's initOtp and verifyOtp do: a token bound to key. */
    private String verifiedToken(String configId, String email, TargetKey key) throws Exception {
        smtp.purgeEmailFromAllMailboxes();
        Response init = proxy(
                "otp_init_v2", configId, new LinkedHashMap<>(Map.of("otpType", "OTP_TYPE_EMAIL", "contact", email)));
        assertThat(init.status()).as(init.body().toString()).isEqualTo(200);
        String signer = Bundles.discoveredKey(server.baseUrl(), "/public/v1/discovery/otp-signer");
        Response verified = proxy(
                "otp_verify_v2",
                configId,
                new LinkedHashMap<>(Map.of(
                        "otpId",
                        init.body().path("otpId").asString(),
                        "encryptedOtpBundle",
                        Bundles.encryptOtpCode(
                                init.body().path("otpEncryptionTargetBundle").asString(),
                                signer,
                                EmailedCodes.latest(smtp),
                                key.compressed()))));
        assertThat(verified.status()).as(verified.body().toString()).isEqualTo(200);
        return verified.body().path("verificationToken").asString();
    }

    /** What core's buildSignUpBody sends: empty credential arrays, names, nothing else. */
    private static Map<String, Object> emptySignUp() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("userName", "user-" + UUID.randomUUID());
        body.put("authenticators", List.of());
        body.put("organizationName", "sub-org-" + UUID.randomUUID());
        body.put("apiKeys", List.of());
        body.put("oauthProviders", List.of());
        return body;
    }

    /** signUpWithOtp's body before its client signature (no userName: the email names the user). */
    private static Map<String, Object> otpSignUp(String email, String token) {
        Map<String, Object> body = emptySignUp();
        body.remove("userName");
        body.put("userEmail", email);
        body.put("organizationName", "Acme " + email);
        body.put("verificationToken", token);
        return body;
    }

    /**
     * The client signature core adds: {@code key} signs {@code {usageKey: {apiKeys, authenticators, oauthProviders,
     * email}, tokenId, type}} as raw r‖s.
     */
    @SuppressWarnings("unchecked")
    private static void sign(Map<String, Object> body, TargetKey key, String usageKey) {
        String token = (String) body.get("verificationToken");
        JsonNode claims = JSON.readTree(Base64.getUrlDecoder().decode(token.split("\\.")[1]));
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("apiKeys", body.get("apiKeys"));
        usage.put("authenticators", body.get("authenticators"));
        usage.put("oauthProviders", body.get("oauthProviders"));
        usage.put("email", body.get("userEmail"));
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put(usageKey, usage);
        payload.put("tokenId", claims.path("id").asString());
        payload.put("type", "USAGE_TYPE_SIGNUP");
        String message = JSON.writeValueAsString(payload);
        String signature;
        try (SigningKey signer = SigningKey.ecdsa(EcCurve.P256, SecretBytes.copyOf(key.privateKey()))) {
            signature = HEX.formatHex(EcdsaSignatures.derToRaw(signer.sign(message.getBytes(StandardCharsets.UTF_8))));
        }
        Map<String, Object> clientSignature = new LinkedHashMap<>();
        clientSignature.put("publicKey", key.compressed());
        clientSignature.put("scheme", "CLIENT_SIGNATURE_SCHEME_API_P256");
        clientSignature.put("message", message);
        clientSignature.put("signature", signature);
        body.put("clientSignature", clientSignature);
    }

    /** signUpWithPasskey's body: the passkey's attestation and the 60-second key that stamps the login. */
    private static Map<String, Object> passkeySignUp(
            SoftwareAuthenticator passkey, ApiKeyStamper temporary, SoftwareAuthenticator.Tamper tamper) {
        Map<String, Object> body = emptySignUp();
        body.put(
                "authenticators",
                List.of(JSON.convertValue(
                        passkey.registration("laptop", SoftwareAuthenticator.Format.PACKED_SELF, tamper), Map.class)));
        body.put(
                "apiKeys",
                List.of(Map.of(
                        "apiKeyName",
                        "passkey-auth-" + temporary.publicKey(),
                        "publicKey",
                        temporary.publicKey(),
                        "curveType",
                        "API_KEY_CURVE_P256",
                        "expirationSeconds",
                        "60")));
        return body;
    }

    private KeyhavenClient stamped(TargetKey key) {
        return client.withStamper(
                ApiKeyStamper.fromPrivateKey(ApiKeyStamper.Curve.P256, HEX.formatHex(key.privateKey())));
    }

    private String idToken(String subject) {
        Date now = Date.from(clock.instant());
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(ISSUER)
                .audience(AUDIENCE)
                .subject(subject)
                .issueTime(now)
                .expirationTime(Date.from(clock.instant().plusSeconds(600)))
                .jwtID(UUID.randomUUID().toString())
                .build();
        SignedJWT jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.ES256)
                        .keyID(ISSUER_KEY.getKeyID())
                        .build(),
                claims);
        try {
            jwt.sign(new ECDSASigner(ISSUER_KEY));
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return jwt.serialize();
    }

    private static ECKey issuerKey() {
        try {
            return new ECKeyGenerator(Curve.P_256).keyID("signup-1").generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }
}
