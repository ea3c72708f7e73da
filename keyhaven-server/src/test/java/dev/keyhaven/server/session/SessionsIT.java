package dev.keyhaven.server.session;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests;
import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.VerifyingKey;
import dev.keyhaven.crypto.bundle.TurnkeyHpke;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.app.KeyhavenConfig;
import dev.keyhaven.server.custody.EcdsaSignatures;
import dev.keyhaven.server.testing.Bundles;
import dev.keyhaven.server.testing.Bundles.TargetKey;
import dev.keyhaven.server.testing.MutableClock;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.SoftwareAuthenticator;
import dev.keyhaven.server.testing.SoftwareAuthenticator.Format;
import dev.keyhaven.server.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * stamp_login and create_read_write_session (V2): sessions that stamp until they expire or are invalidated. The
 * server runs the default configuration but for a passkey origin, so it also shows that SMS codes are refused without
 * an SMS provider.
 */
class SessionsIT extends OnBothStores {
    private static final HexFormat HEX = HexFormat.of();
    private static final String ORIGIN = "https://wallet.example.org";
    private static final String RP_ID = "wallet.example.org";

    private final MutableClock clock = MutableClock.ticking();
    private KeyhavenClient client;

    @Override
    protected Clock clock() {
        return clock;
    }

    @Override
    protected KeyhavenConfig configure(KeyhavenConfig defaults) {
        return defaults.withWebAuthnOrigins(List.of(ORIGIN));
    }

    @BeforeEach
    void client() {
        client = root.withClock(clock);
    }

    private Activity stampLogin(TargetKey session, Map<String, Object> extra) {
        Map<String, Object> p = new LinkedHashMap<>(extra);
        p.put("publicKey", session.compressed());
        return client.submit("stamp_login", "ACTIVITY_TYPE_STAMP_LOGIN", p, "stampLoginResult");
    }

    private KeyhavenClient as(byte[] privateKey) {
        return client.withStamper(ApiKeyStamper.fromPrivateKey(ApiKeyStamper.Curve.P256, HEX.formatHex(privateKey)));
    }

    @Test
    void stampLoginOpensASessionThatStampsUntilItExpires() {
        TargetKey session = TargetKey.generate();
        String jwt = stampLogin(session, Map.of("expirationSeconds", "30"))
                .result()
                .path("session")
                .asString();
        String[] parts = jwt.split("\\.");
        JsonNode claims =
                JsonMapper.builder().build().readTree(Base64.getUrlDecoder().decode(parts[1]));
        assertThat(claims.path("user_id").asString()).isEqualTo(server.rootUserId());
        assertThat(claims.path("organization_id").asString()).isEqualTo(server.organizationId());
        assertThat(claims.path("public_key").asString()).isEqualTo(session.compressed());
        byte[] input = (parts[0] + "." + parts[1]).getBytes(StandardCharsets.UTF_8);
        String signer = Bundles.discoveredKey(server.baseUrl(), "/public/v1/discovery/session-signer");
        assertThat(VerifyingKey.ecdsaSha256(EcCurve.P256, HEX.parseHex(signer))
                        .verify(
                                Digests.sha256(input),
                                EcdsaSignatures.rawToDer(Base64.getUrlDecoder().decode(parts[2]))))
                .isTrue();

        KeyhavenClient sessionClient = as(session.privateKey());
        assertThat(sessionClient.whoami().userId()).isEqualTo(server.rootUserId());
        clock.advance(Duration.ofSeconds(31));
        assertThat(apiError(sessionClient::whoami).httpStatus()).isEqualTo(401);
    }

    @Test
    void invalidateExistingEndsTheEarlierSessions() {
        TargetKey first = TargetKey.generate();
        stampLogin(first, Map.of());
        assertThat(as(first.privateKey()).whoami().userId()).isEqualTo(server.rootUserId());
        TargetKey second = TargetKey.generate();
        stampLogin(second, Map.of("invalidateExisting", true));
        assertThat(apiError(as(first.privateKey())::whoami).httpStatus()).isEqualTo(401);
        assertThat(as(second.privateKey()).whoami().userId()).isEqualTo(server.rootUserId());
    }

    /** A sub-organization of the root organization whose root user holds {@code key}; its id. */
    private String subOrganizationWith(ApiKeyStamper key) {
        return client.createSubOrganization(
                        "sub-" + UUID.randomUUID(),
                        List.of(new Requests.RootUserParams(
                                "wallet user",
                                null,
                                null,
                                List.of(Requests.ApiKeyParams.of("k", key)),
                                List.of(),
                                List.of())),
                        1)
                .result()
                .path("subOrganizationId")
                .asString();
    }

    /**
     * A stamp_login addressed to the parent that ran in the sub-organization: completed there, for {@code userId},
     * its session key answering whoami there, and recorded in the sub-organization, not in the parent.
     */
    private void assertLoggedInToTheSubOrganization(
            Activity login, String subOrganizationId, String userId, TargetKey session) {
        assertThat(login.isCompleted()).isTrue();
        assertThat(login.organizationId()).isEqualTo(subOrganizationId);
        JsonNode claims = JsonMapper.builder()
                .build()
                .readTree(Base64.getUrlDecoder()
                        .decode(login.result().path("session").asString().split("\\.")[1]));
        assertThat(claims.path("organization_id").asString()).isEqualTo(subOrganizationId);
        assertThat(claims.path("user_id").asString()).isEqualTo(userId);
        var asSession =
                as(session.privateKey()).forOrganization(subOrganizationId).whoami();
        assertThat(asSession.userId()).isEqualTo(userId);
        assertThat(asSession.organizationId()).isEqualTo(subOrganizationId);
        assertThat(client.forOrganization(subOrganizationId)
                        .getActivity(login.id())
                        .path("type")
                        .asString())
                .isEqualTo("ACTIVITY_TYPE_STAMP_LOGIN");
        assertThat(apiError(() -> client.getActivity(login.id())).httpStatus()).isEqualTo(404);
    }

    /** stamp_login for {@code session}, stamped by {@code key} and addressed to the root organization (the parent). */
    private Activity stampLoginAtParent(ApiKeyStamper key, TargetKey session) {
        return client.withStamper(key)
                .submit(
                        "stamp_login",
                        "ACTIVITY_TYPE_STAMP_LOGIN",
                        Map.of("publicKey", session.compressed()),
                        "stampLoginResult");
    }

    @Test
    void aSubOrganizationsUserLogsInThroughTheParentAndTheSessionIsInTheSubOrganization() {
        // What @turnkey/core's wallet login sends: a secp256k1 key's stamp_login with the parent's id.
        ApiKeyStamper wallet = TestServer.newKey(ApiKeyStamper.Curve.SECP256K1);
        String subOrganizationId = subOrganizationWith(wallet);
        String userId = client.withStamper(wallet)
                .forOrganization(subOrganizationId)
                .whoami()
                .userId();
        TargetKey session = TargetKey.generate();

        Activity login = stampLoginAtParent(wallet, session);

        assertLoggedInToTheSubOrganization(login, subOrganizationId, userId, session);
    }

    @Test
    void aSubOrganizationsPasskeyLogsInThroughTheParent() {
        // What @turnkey/core's loginWithPasskey sends without an organization id: a passkey-stamped stamp_login
        // addressed to the parent, whose sub-organization the credential id finds.
        SoftwareAuthenticator passkey = SoftwareAuthenticator.create(ORIGIN, RP_ID);
        String subOrganizationId = client.createSubOrganization(
                        "sub-" + UUID.randomUUID(),
                        List.of(new Requests.RootUserParams(
                                "passkey user",
                                null,
                                null,
                                List.of(),
                                List.of(passkey.registration("laptop", Format.NONE)),
                                List.of())),
                        1)
                .result()
                .path("subOrganizationId")
                .asString();
        String userId = client.withStamper(passkey)
                .forOrganization(subOrganizationId)
                .whoami()
                .userId();
        TargetKey session = TargetKey.generate();

        Activity login = client.withStamper(passkey)
                .submit(
                        "stamp_login",
                        "ACTIVITY_TYPE_STAMP_LOGIN",
                        Map.of("publicKey", session.compressed()),
                        "stampLoginResult");

        assertLoggedInToTheSubOrganization(login, subOrganizationId, userId, session);
        JsonNode vote = login.raw().path("votes").get(0);
        assertThat(vote.path("scheme").asString()).isEqualTo("SIGNATURE_SCHEME_TK_WEBAUTHN");
        assertThat(vote.path("userId").asString()).isEqualTo(userId);

        // A passkey no sub-organization holds: the credential id names nobody.
        SoftwareAuthenticator stranger = SoftwareAuthenticator.create(ORIGIN, RP_ID);
        apiError(
                ErrorCode.CREDENTIAL_NOT_FOUND,
                null,
                () -> client.withStamper(stranger)
                        .submit(
                                "stamp_login",
                                "ACTIVITY_TYPE_STAMP_LOGIN",
                                Map.of("publicKey", TargetKey.generate().compressed()),
                                "stampLoginResult"));
    }

    @Test
    void aLoginThroughTheParentNeedsExactlyOneSubOrganizationWithTheKey() {
        ApiKeyStamper nowhere = TestServer.newKey(ApiKeyStamper.Curve.SECP256K1);
        apiError(ErrorCode.PUBLIC_KEY_NOT_FOUND, null, () -> stampLoginAtParent(nowhere, TargetKey.generate()));

        ApiKeyStamper shared = TestServer.newKey(ApiKeyStamper.Curve.P256);
        subOrganizationWith(shared);
        subOrganizationWith(shared);
        apiError(ErrorCode.CREDENTIAL_CONFLICT, null, () -> stampLoginAtParent(shared, TargetKey.generate()));
    }

    @Test
    void otherActivitiesOfASubOrganizationsUserAddressedToTheParentAreStillRefused() {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        subOrganizationWith(key);
        apiError(
                ErrorCode.PUBLIC_KEY_NOT_FOUND,
                null,
                () -> client.withStamper(key)
                        .submit(
                                "create_read_write_session",
                                "ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2",
                                Map.of("targetPublicKey", TargetKey.generate().uncompressed()),
                                "createReadWriteSessionResultV2"));
    }

    @Test
    void badSessionParametersAreRefused() {
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.publicKey",
                () -> client.submit(
                        "stamp_login", "ACTIVITY_TYPE_STAMP_LOGIN", Map.of("publicKey", "02abcd"), "stampLoginResult"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.expirationSeconds",
                () -> stampLogin(TargetKey.generate(), Map.of("expirationSeconds", "0")));
        KeyhavenApiException unknownUser = apiError(() -> client.submit(
                "create_read_write_session",
                "ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2",
                Map.of(
                        "targetPublicKey",
                        TargetKey.generate().uncompressed(),
                        "userId",
                        UUID.randomUUID().toString()),
                "createReadWriteSessionResultV2"));
        assertThat(unknownUser.httpStatus()).isEqualTo(404);
    }

    private KeyhavenClient.RawResponse withSession(String path, String session, String body) {
        return client.post(path, body.getBytes(StandardCharsets.UTF_8), Map.of("X-Session", session), false);
    }

    @Test
    void aReadOnlySessionAuthenticatesQueriesForAnHour() {
        Activity created = client.submit(
                "create_read_only_session",
                "ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION",
                Map.of(),
                "createReadOnlySessionResult");
        JsonNode result = created.result();
        assertThat(result.path("userId").asString()).isEqualTo(server.rootUserId());
        assertThat(result.path("username").asString()).isEqualTo("root");
        assertThat(Long.parseLong(result.path("sessionExpiry").asString()))
                .isCloseTo(clock.instant().getEpochSecond() + 3600, org.assertj.core.data.Offset.offset(60L));
        String session = result.path("session").asString();
        String org = "{\"organizationId\":\"" + server.organizationId() + "\"}";

        KeyhavenClient.RawResponse users = withSession("/public/v1/query/list_users", session, org);
        assertThat(users.status()).isEqualTo(200);
        assertThat(new String(users.body(), StandardCharsets.UTF_8)).contains(server.rootUserId());
        // Reads only.
        assertThat(withSession(
                                "/public/v1/submit/create_read_only_session",
                                session,
                                new String(
                                        client.submitBody("ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION", Map.of()),
                                        StandardCharsets.UTF_8))
                        .status())
                .isEqualTo(401);
        // A forged session and another organization are refused.
        String[] parts = session.split("\\.");
        assertThat(withSession("/public/v1/query/list_users", parts[0] + "." + parts[1] + ".AAAA", org)
                        .status())
                .isEqualTo(401);
        assertThat(withSession(
                                "/public/v1/query/list_users",
                                session,
                                "{\"organizationId\":\"" + UUID.randomUUID() + "\"}")
                        .status())
                .isIn(401, 404);
        clock.advance(Duration.ofHours(1).plusSeconds(1));
        assertThat(withSession("/public/v1/query/list_users", session, org).status())
                .isEqualTo(401);
    }

    @Test
    void withoutAnSmsProviderSmsCodesAreRefused() {
        KeyhavenApiException refused = apiError(
                ErrorCode.BAD_REQUEST,
                null,
                () -> client.submit(
                        "init_otp",
                        "ACTIVITY_TYPE_INIT_OTP_V3",
                        Map.of("otpType", "OTP_TYPE_SMS", "contact", "+15551234567", "appName", "Acme"),
                        "initOtpResultV2"));
        assertThat(refused.serverMessage())
                .isEqualTo("SMS codes are not available: this server has no SMS provider " + "(serve --sms-provider)");
    }

    @Test
    void aReadWriteSessionArrivesAsACredentialBundleThatStamps() {
        TargetKey target = TargetKey.generate();
        Activity created = client.submit(
                "create_read_write_session",
                "ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2",
                Map.of(
                        "targetPublicKey",
                        target.uncompressed(),
                        "apiKeyName",
                        "browser session",
                        "expirationSeconds",
                        "120"),
                "createReadWriteSessionResultV2");
        JsonNode result = created.result();
        assertThat(result.path("organizationId").asString()).isEqualTo(server.organizationId());
        assertThat(result.path("userId").asString()).isEqualTo(server.rootUserId());
        assertThat(result.path("username").asString()).isEqualTo("root");
        assertThat(result.path("organizationName").asString()).isNotEmpty();
        byte[] key = target.open(TurnkeyHpke.Encrypted.ofCredentialBundle(
                result.path("credentialBundle").asString()));
        KeyhavenClient session = as(key);
        assertThat(session.whoami().userId()).isEqualTo(server.rootUserId());
        assertThat(client.getApiKeys(server.rootUserId()))
                .extracting(k -> k.path("apiKeyId").asString())
                .contains(result.path("apiKeyId").asString());
        clock.advance(Duration.ofSeconds(121));
        assertThat(apiError(session::whoami).httpStatus()).isEqualTo(401);
    }
}
