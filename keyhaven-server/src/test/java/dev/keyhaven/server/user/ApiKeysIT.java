package dev.keyhaven.server.user;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.Requests.ApiKeyParams;
import dev.keyhaven.client.Requests.UserParams;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** create_api_keys, get_api_keys, get_api_key, delete_api_keys and the per-user key limits. */
class ApiKeysIT extends OnBothStores {

    private String newUser(String name) {
        return root.createUsers(List.of(
                        new UserParams(name, name + "@example.com", null, List.of(), List.of(), List.of(), List.of())))
                .result()
                .path("userIds")
                .get(0)
                .asString();
    }

    private static ApiKeyParams key(String name) {
        return ApiKeyParams.of(name, TestServer.newKey(ApiKeyStamper.Curve.P256));
    }

    @Test
    void keysAreCreatedListedFetchedAndDeleted() {
        String userId = newUser("keyholder");
        ApiKeyStamper ed = TestServer.newKey(ApiKeyStamper.Curve.ED25519);
        Activity created = root.createApiKeys(
                userId,
                List.of(
                        ApiKeyParams.of("ed", ed),
                        new ApiKeyParams(
                                "expiring",
                                TestServer.newKey(ApiKeyStamper.Curve.SECP256K1).publicKey(),
                                "API_KEY_CURVE_SECP256K1",
                                "3600")));
        List<String> ids = new ArrayList<>();
        created.result().path("apiKeyIds").forEach(id -> ids.add(id.asString()));
        assertThat(ids).hasSize(2);

        JsonNode listed = root.getApiKeys(userId);
        assertThat(listed).extracting(k -> k.path("apiKeyId").asString()).containsExactlyElementsOf(ids);
        assertThat(listed.get(1).path("expirationSeconds").asString()).isEqualTo("3600");
        assertThat(listed.get(0).has("expirationSeconds")).isFalse();
        assertThat(listed.get(0).path("credential").path("type").asString())
                .isEqualTo("CREDENTIAL_TYPE_API_KEY_ED25519");
        assertThat(root.getApiKeys(null)).hasSizeGreaterThanOrEqualTo(3);
        JsonNode one = root.query("get_api_key", Map.of("apiKeyId", ids.get(0))).path("apiKey");
        assertThat(one.path("credential").path("publicKey").asString()).isEqualTo(ed.publicKey());
        assertThat(root.withStamper(ed).whoami().userId()).isEqualTo(userId);

        Activity deleted = root.deleteApiKeys(userId, List.of(ids.get(0)));
        assertThat(deleted.result().path("apiKeyIds").get(0).asString()).isEqualTo(ids.get(0));
        assertThat(root.getApiKeys(userId)).hasSize(1);
        assertThat(apiError(() -> root.query("get_api_key", Map.of("apiKeyId", ids.get(0))))
                        .httpStatus())
                .isEqualTo(404);
    }

    @Test
    void uncompressedKeysAreStoredCompressed() {
        String userId = newUser("uncompressed");
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String uncompressed = java.util.HexFormat.of()
                .formatHex(dev.keyhaven.crypto.EcCurve.P256.decompress(
                        java.util.HexFormat.of().parseHex(key.publicKey())));
        root.createApiKeys(userId, List.of(new ApiKeyParams("u", uncompressed, "API_KEY_CURVE_P256", null)));
        assertThat(root.getApiKeys(userId)
                        .get(0)
                        .path("credential")
                        .path("publicKey")
                        .asString())
                .isEqualTo(key.publicKey());
        assertThat(root.withStamper(key).whoami().userId()).isEqualTo(userId);
    }

    @Test
    void invalidKeysAreRejectedNamingTheField() {
        String userId = newUser("invalid");
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.apiKeys[0].publicKey",
                () -> root.createApiKeys(
                        userId, List.of(new ApiKeyParams("bad", "02abcd", "API_KEY_CURVE_P256", null))));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.apiKeys[0].curveType",
                () -> root.createApiKeys(
                        userId, List.of(new ApiKeyParams("bad", key("x").publicKey(), "API_KEY_CURVE_RSA", null))));
        for (String expiration : List.of("0", "-5", "soon", "99999999999999999999")) {
            assertThat(apiError(
                                    ErrorCode.BAD_REQUEST,
                                    "parameters.apiKeys[0].expirationSeconds",
                                    () -> root.createApiKeys(
                                            userId,
                                            List.of(new ApiKeyParams(
                                                    "bad", key("x").publicKey(), "API_KEY_CURVE_P256", expiration))))
                            .serverMessage())
                    .startsWith("bad request body: parameters.apiKeys[0].expirationSeconds is an invalid api key "
                            + "expiration");
        }
        apiError(ErrorCode.BAD_REQUEST, "parameters.apiKeys", () -> root.createApiKeys(userId, List.of()));
        assertThat(apiError(() -> root.createApiKeys("00000000-0000-7000-8000-000000000001", List.of(key("k"))))
                        .httpStatus())
                .isEqualTo(404);
        ApiKeyParams same = key("same");
        assertThat(apiError(ErrorCode.BAD_REQUEST, null, () -> root.createApiKeys(userId, List.of(same, same)))
                        .serverMessage())
                .isEqualTo("public key " + same.publicKey() + " is already registered in this organization");
        assertThat(root.getApiKeys(userId)).isEmpty();
    }

    @Test
    void deletingAKeyOfAnotherUserIsNotFound() {
        String owner = newUser("owner");
        String other = newUser("other");
        String keyId = root.createApiKeys(owner, List.of(key("k")))
                .result()
                .path("apiKeyIds")
                .get(0)
                .asString();
        assertThat(apiError(() -> root.deleteApiKeys(other, List.of(keyId))).httpStatus())
                .isEqualTo(404);
        assertThat(root.getApiKeys(owner)).hasSize(1);
        assertThat(apiError(() -> root.query("get_api_keys", Map.of("userId", "00000000-0000-7000-8000-000000000002")))
                        .httpStatus())
                .isEqualTo(404);
    }

    @Test
    void anEleventhLongLivedKeyIsRefusedWith429() {
        String userId = newUser("collector");
        List<ApiKeyParams> ten = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ten.add(key("k" + i));
        }
        root.createApiKeys(userId, ten);
        KeyhavenApiException e =
                apiError(ErrorCode.LIMIT_EXCEEDED, null, () -> root.createApiKeys(userId, List.of(key("eleventh"))));
        assertThat(e.serverMessage()).startsWith("user has exceeded maximum long-lived api keys (");
        assertThat(root.getApiKeys(userId)).hasSize(10);
    }

    @Test
    void anEleventhExpiringKeyEvictsTheOldest() {
        String userId = newUser("rotator");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            ids.add(root.createApiKeys(
                            userId,
                            List.of(new ApiKeyParams("e" + i, key("e").publicKey(), "API_KEY_CURVE_P256", "3600")))
                    .result()
                    .path("apiKeyIds")
                    .get(0)
                    .asString());
        }
        JsonNode keys = root.getApiKeys(userId);
        assertThat(keys).hasSize(10);
        assertThat(keys)
                .extracting(k -> k.path("apiKeyId").asString())
                .doesNotContain(ids.get(0))
                .contains(ids.get(10));
    }
}
