package dev.keyhaven.server.state;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.ApiKeyParams;
import dev.keyhaven.client.Requests.PrivateKeyParams;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Signing runs on what a server remembers of its organization. Whatever changes that organization — on this server
 * or on another one sharing the database — must count for the very next signature: a deleted key no longer signs,
 * a deleted API key no longer submits, and votes show the voter as they are now.
 */
class OrganizationStateIT extends OnBothStores {
    private static final String DIGEST = "42".repeat(32);

    @Test
    void aKeyDeletedHereStopsSigningAtOnce() {
        String key = privateKey("deleted-here");
        assertThat(sign(root, key).isCompleted()).isTrue();
        delete(root, key);
        assertThat(apiError(() -> sign(root, key)).httpStatus()).isEqualTo(404);
    }

    @Test
    void aKeyDeletedThroughAnotherServerStopsSigningAtOnce() {
        String key = privateKey("deleted-elsewhere");
        try (TestServer peer = server.peer()) {
            assertThat(sign(root, key).isCompleted()).isTrue();
            delete(peer.rootClient(), key);
            var refused = apiError(() -> sign(root, key));
            assertThat(refused.httpStatus()).isEqualTo(404);
            assertThat(refused.getMessage()).contains("no wallet account or private key");
        }
    }

    @Test
    void anApiKeyDeletedThroughAnotherServerNoLongerSubmitsActivities() {
        String key = privateKey("second-api-key");
        ApiKeyStamper second = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String apiKeyId = root.createApiKeys(server.rootUserId(), List.of(new ApiKeyParams("second",
                second.publicKey(), "API_KEY_CURVE_P256", null))).result().path("apiKeyIds").get(0).asString();
        KeyhavenClient viaSecondKey = root.withStamper(second);
        try (TestServer peer = server.peer()) {
            assertThat(sign(viaSecondKey, key).isCompleted()).isTrue();
            peer.rootClient().deleteApiKeys(server.rootUserId(), List.of(apiKeyId));
            assertThat(apiError(() -> sign(viaSecondKey, key)).httpStatus()).isEqualTo(401);
        }
    }

    @Test
    void votesShowTheVoterAsTheyAreAfterAChangeThroughAnotherServer() {
        String key = privateKey("renamed-voter");
        try (TestServer peer = server.peer()) {
            String before = voterName(sign(root, key));
            peer.rootClient().submit("update_user_name", "ACTIVITY_TYPE_UPDATE_USER_NAME",
                    Map.of("userId", server.rootUserId(), "userName", before + " renamed"), "updateUserNameResult");
            assertThat(voterName(sign(root, key))).isEqualTo(before + " renamed");
        }
    }

    private String privateKey(String name) {
        return root.createPrivateKeys(List.of(new PrivateKeyParams(name, "CURVE_SECP256K1", List.of(), List.of())))
                .result().path("privateKeys").get(0).path("privateKeyId").asString();
    }

    private static Activity sign(KeyhavenClient client, String key) {
        return client.signRawPayload(key, DIGEST, "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP");
    }

    private static void delete(KeyhavenClient client, String key) {
        client.submit("delete_private_keys", "ACTIVITY_TYPE_DELETE_PRIVATE_KEYS",
                Map.of("privateKeyIds", List.of(key), "deleteWithoutExport", true), "deletePrivateKeysResult");
    }

    private static String voterName(Activity activity) {
        return activity.raw().path("votes").get(0).path("user").path("userName").asString();
    }
}
