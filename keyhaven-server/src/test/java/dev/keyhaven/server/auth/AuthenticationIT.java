package dev.keyhaven.server.auth;

import static dev.keyhaven.server.testing.ApiErrors.assertError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.ApiKeyParams;
import dev.keyhaven.client.Requests.RootUserParams;
import dev.keyhaven.client.Requests.UserParams;
import dev.keyhaven.client.Stamper;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.Eip191Stamper;
import dev.keyhaven.server.testing.MutableClock;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.ValueSource;

/** Every stamp scheme, expiring keys, and caller resolution across parent and sub-organizations. */
class AuthenticationIT extends OnBothStores {
    private final MutableClock clock = MutableClock.startingNow();

    @Override
    protected Clock clock() {
        return clock;
    }

    private String createUser(String name, ApiKeyParams key) {
        return root.createUsers(List.of(UserParams.withApiKeys(name, List.of(key))))
                .result()
                .path("userIds")
                .get(0)
                .asString();
    }

    @org.junit.jupiter.params.ParameterizedTest
    @ValueSource(strings = {"P256", "SECP256K1", "ED25519"})
    void everyApiKeyCurveAuthenticates(String curveName) {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.valueOf(curveName));
        String userId = createUser("user-" + curveName, ApiKeyParams.of("key", key));
        assertThat(root.withStamper(key).whoami().userId()).isEqualTo(userId);
    }

    @Test
    void ethereumWalletStampsVerifyOverTheEip191Digest() {
        Eip191Stamper wallet = new Eip191Stamper(new SecureRandom());
        String userId = createUser(
                "wallet-user", new ApiKeyParams("wallet", wallet.publicKey(), "API_KEY_CURVE_SECP256K1", null));
        assertThat(root.withStamper(wallet).whoami().userId()).isEqualTo(userId);
    }

    @Test
    void aStampNamingAnotherCurvesSchemeIsRejected() {
        ApiKeyStamper p256 = TestServer.newKey(ApiKeyStamper.Curve.P256);
        createUser("p256-user", ApiKeyParams.of("key", p256));
        KeyhavenClient mislabelled = root.withStamper(body -> {
            String json = new String(
                            Base64.getUrlDecoder().decode(p256.stamp(body).headerValue()), StandardCharsets.UTF_8)
                    .replace("SIGNATURE_SCHEME_TK_API_P256", "SIGNATURE_SCHEME_TK_API_SECP256K1");
            return new Stamper.Stamp(
                    "X-Stamp",
                    Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8)));
        });
        assertThatThrownBy(mislabelled::whoami).isInstanceOfSatisfying(KeyhavenApiException.class, e -> {
            assertThat(e.httpStatus()).isEqualTo(401);
            // Depending on the key, its bytes are no secp256k1 point at all, or one the signature does not fit.
            assertThat(e.turnkeyErrorCode()).isIn("UNAUTHENTICATED", "SIGNATURE_INVALID");
        });
    }

    @Test
    void expiredKeysAreRefused() {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        createUser("short-lived", new ApiKeyParams("expiring", key.publicKey(), "API_KEY_CURVE_P256", "60"));
        assertThat(root.withStamper(key).whoami().username()).isEqualTo("short-lived");
        clock.advance(Duration.ofSeconds(61));
        assertThatThrownBy(() -> root.withStamper(key).whoami())
                .isInstanceOfSatisfying(
                        KeyhavenApiException.class,
                        e -> assertThat(assertError(e, ErrorCode.API_KEY_EXPIRED, null)
                                        .serverMessage())
                                .isEqualTo("expired api key"));
    }

    @Test
    void parentUsersReadSubOrganizationsButCannotWriteThem() {
        ApiKeyStamper subRoot = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String subId = root.createSubOrganization(
                        "sub-read",
                        List.of(RootUserParams.withApiKeys("sub root", List.of(ApiKeyParams.of("k", subRoot)))),
                        1)
                .result()
                .path("subOrganizationId")
                .asString();
        KeyhavenClient parentOnSub = root.forOrganization(subId);

        assertThat(parentOnSub.getOrganization().path("organizationId").asString())
                .isEqualTo(subId);
        assertThat(parentOnSub.whoami().organizationId()).isEqualTo(server.organizationId());
        assertThatThrownBy(() -> parentOnSub.createUserTag("nope", List.of()))
                .isInstanceOfSatisfying(
                        KeyhavenApiException.class,
                        e -> assertThat(assertError(e, ErrorCode.INVALID_ACTIVITY_CALLER, null)
                                        .serverMessage())
                                .startsWith("organization mismatch: request is targeting organization ("));
        // The sub-organization's own root may act in it, and not in the parent.
        KeyhavenClient subClient = root.withStamper(subRoot).forOrganization(subId);
        assertThat(subClient.createUserTag("ok", List.of()).status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThatThrownBy(() -> root.withStamper(subRoot).createUserTag("not in the parent", List.of()))
                .isInstanceOfSatisfying(
                        KeyhavenApiException.class,
                        e -> assertThat(e.turnkeyErrorCode()).isEqualTo("PUBLIC_KEY_NOT_FOUND"));
    }

    @Test
    void whoamiWithTheParentIdFindsTheOneSubOrganizationHoldingTheKey() {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String subId = root.createSubOrganization(
                        "sub-lookup",
                        List.of(RootUserParams.withApiKeys("owner", List.of(ApiKeyParams.of("k", key)))),
                        1)
                .result()
                .path("subOrganizationId")
                .asString();
        KeyhavenClient.Whoami whoami = root.withStamper(key).whoami();
        assertThat(whoami.organizationId()).isEqualTo(subId);
        assertThat(whoami.organizationName()).isEqualTo("sub-lookup");
        assertThat(whoami.username()).isEqualTo("owner");
        // Other queries do not look into sub-organizations.
        assertThatThrownBy(() -> root.withStamper(key).listUsers())
                .isInstanceOfSatisfying(
                        KeyhavenApiException.class,
                        e -> assertThat(e.turnkeyErrorCode()).isEqualTo("PUBLIC_KEY_NOT_FOUND"));
    }

    @Test
    void aKeyInTwoSubOrganizationsIsAConflictForWhoamiOnTheParent() {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        for (String name : List.of("twin-a", "twin-b")) {
            root.createSubOrganization(
                    name, List.of(RootUserParams.withApiKeys("owner", List.of(ApiKeyParams.of("k", key)))), 1);
        }
        assertThatThrownBy(() -> root.withStamper(key).whoami())
                .isInstanceOfSatisfying(KeyhavenApiException.class, e -> {
                    assertThat(e.httpStatus()).isEqualTo(401);
                    assertThat(e.turnkeyErrorCode()).isEqualTo("CREDENTIAL_CONFLICT");
                });
    }
}
