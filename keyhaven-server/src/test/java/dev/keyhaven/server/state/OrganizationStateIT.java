package dev.keyhaven.server.state;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.ApiKeyParams;
import dev.keyhaven.client.Requests.PrivateKeyParams;
import dev.keyhaven.client.Requests.RootUserParams;
import dev.keyhaven.client.Requests.WalletAccountParams;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Signing runs on what a server remembers of its organization, and list_wallet_accounts and whoami answer from it.
 * Whatever changes that organization — on this server or on another one sharing the database — must count for the
 * very next request: a deleted key no longer signs, a deleted API key no longer submits or reads, votes and whoami
 * show the user as they are now, and listed accounts are the accounts as they are now.
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
            assertThat(apiError(ErrorCode.NOT_FOUND, null, () -> sign(root, key))
                            .serverMessage())
                    .startsWith("no wallet account or private key of this organization matches signWith '");
        }
    }

    /** A second API key of the root user, and a client stamping with it. */
    private record SecondKey(String apiKeyId, KeyhavenClient client) {}

    private SecondKey secondApiKey(String name) {
        ApiKeyStamper second = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String apiKeyId = root.createApiKeys(
                        server.rootUserId(),
                        List.of(new ApiKeyParams(name, second.publicKey(), "API_KEY_CURVE_P256", null)))
                .result()
                .path("apiKeyIds")
                .get(0)
                .asString();
        return new SecondKey(apiKeyId, root.withStamper(second));
    }

    @Test
    void anApiKeyDeletedThroughAnotherServerNoLongerSubmitsActivities() {
        String key = privateKey("second-api-key");
        SecondKey secondKey = secondApiKey("second");
        String apiKeyId = secondKey.apiKeyId();
        KeyhavenClient viaSecondKey = secondKey.client();
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
            peer.rootClient()
                    .submit(
                            "update_user_name",
                            "ACTIVITY_TYPE_UPDATE_USER_NAME",
                            Map.of("userId", server.rootUserId(), "userName", before + " renamed"),
                            "updateUserNameResult");
            assertThat(voterName(sign(root, key))).isEqualTo(before + " renamed");
        }
    }

    @Test
    void listedAccountsFollowChangesMadeHere() {
        String walletId = wallet("listed-here");
        assertThat(listedPaths(root, walletId, false)).containsExactly("m/44'/60'/0'/0/0");
        root.createWalletAccounts(walletId, List.of(WalletAccountParams.ethereum(1)));
        assertThat(listedPaths(root, walletId, false)).containsExactly("m/44'/60'/0'/0/0", "m/44'/60'/0'/0/1");
        root.submit(
                "update_wallet",
                "ACTIVITY_TYPE_UPDATE_WALLET",
                Map.of("walletId", walletId, "walletName", "renamed-here"),
                "updateWalletResult");
        assertThat(list(root, walletId, true)
                        .path("accounts")
                        .get(0)
                        .path("walletDetails")
                        .path("walletName")
                        .asString())
                .isEqualTo("renamed-here");
    }

    @Test
    void listedAccountsFollowChangesMadeThroughAnotherServer() {
        String walletId = wallet("listed-elsewhere");
        try (TestServer peer = server.peer()) {
            assertThat(listedPaths(root, walletId, false)).containsExactly("m/44'/60'/0'/0/0");
            peer.rootClient().createWalletAccounts(walletId, List.of(WalletAccountParams.ethereum(1)));
            assertThat(listedPaths(root, walletId, false)).containsExactly("m/44'/60'/0'/0/0", "m/44'/60'/0'/0/1");
            peer.rootClient()
                    .submit(
                            "delete_wallets",
                            "ACTIVITY_TYPE_DELETE_WALLETS",
                            Map.of("walletIds", List.of(walletId), "deleteWithoutExport", true),
                            "deleteWalletsResult");
            assertThat(apiError(() -> list(root, walletId, false)).httpStatus()).isEqualTo(404);
        }
    }

    @Test
    void anApiKeyDeletedThroughAnotherServerNoLongerListsAccounts() {
        String walletId = wallet("listed-by-second-key");
        ApiKeyStamper second = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String apiKeyId = root.createApiKeys(
                        server.rootUserId(),
                        List.of(new ApiKeyParams("second-reader", second.publicKey(), "API_KEY_CURVE_P256", null)))
                .result()
                .path("apiKeyIds")
                .get(0)
                .asString();
        KeyhavenClient viaSecondKey = root.withStamper(second);
        try (TestServer peer = server.peer()) {
            assertThat(listedPaths(viaSecondKey, walletId, false)).hasSize(1);
            peer.rootClient().deleteApiKeys(server.rootUserId(), List.of(apiKeyId));
            assertThat(apiError(() -> list(viaSecondKey, walletId, false)).httpStatus())
                    .isEqualTo(401);
        }
    }

    @Test
    void whoamiShowsNamesChangedThroughAnotherServer() {
        KeyhavenClient.Whoami before = root.whoami();
        try (TestServer peer = server.peer()) {
            peer.rootClient()
                    .submit(
                            "update_user_name",
                            "ACTIVITY_TYPE_UPDATE_USER_NAME",
                            Map.of("userId", server.rootUserId(), "userName", before.username() + " again"),
                            "updateUserNameResult");
            assertThat(root.whoami().username()).isEqualTo(before.username() + " again");
            peer.rootClient()
                    .submit(
                            "update_organization_name",
                            "ACTIVITY_TYPE_UPDATE_ORGANIZATION_NAME",
                            Map.of("organizationName", before.organizationName() + " again"),
                            "updateOrganizationNameResult");
            assertThat(root.whoami())
                    .isEqualTo(new KeyhavenClient.Whoami(
                            server.organizationId(),
                            before.organizationName() + " again",
                            server.rootUserId(),
                            before.username() + " again"));
        }
    }

    @Test
    void anApiKeyDeletedThroughAnotherServerNoLongerAnswersWhoami() {
        SecondKey secondKey = secondApiKey("second-whoami");
        String apiKeyId = secondKey.apiKeyId();
        KeyhavenClient viaSecondKey = secondKey.client();
        try (TestServer peer = server.peer()) {
            assertThat(viaSecondKey.whoami().userId()).isEqualTo(server.rootUserId());
            peer.rootClient().deleteApiKeys(server.rootUserId(), List.of(apiKeyId));
            assertThat(apiError(ErrorCode.PUBLIC_KEY_NOT_FOUND, null, viaSecondKey::whoami)
                            .httpStatus())
                    .isEqualTo(401);
        }
    }

    /**
     * A sub-organization's user asking the parent: the names are the sub-organization's, which the parent's state
     * does not follow, so a rename in the sub-organization shows at once.
     */
    @Test
    void whoamiAddressedToTheParentShowsASubOrganizationUserRenamed() {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        Activity created = root.createSubOrganization(
                "whoami-sub", List.of(RootUserParams.withApiKeys("owner", List.of(ApiKeyParams.of("k", key)))), 1);
        String subId = created.result().path("subOrganizationId").asString();
        String ownerId = created.result().path("rootUserIds").get(0).asString();
        KeyhavenClient viaParent = root.withStamper(key);
        assertThat(viaParent.whoami()).isEqualTo(new KeyhavenClient.Whoami(subId, "whoami-sub", ownerId, "owner"));
        viaParent
                .forOrganization(subId)
                .submit(
                        "update_user_name",
                        "ACTIVITY_TYPE_UPDATE_USER_NAME",
                        Map.of("userId", ownerId, "userName", "owner renamed"),
                        "updateUserNameResult");
        assertThat(viaParent.whoami().username()).isEqualTo("owner renamed");
    }

    private String wallet(String name) {
        return root.createWallet(name, List.of(WalletAccountParams.ethereum(0)))
                .result()
                .path("walletId")
                .asString();
    }

    private static JsonNode list(KeyhavenClient client, String walletId, boolean details) {
        return client.query(
                "list_wallet_accounts",
                Map.of(
                        "walletId",
                        walletId,
                        "includeWalletDetails",
                        details,
                        "paginationOptions",
                        Map.of("limit", "100")));
    }

    private static List<String> listedPaths(KeyhavenClient client, String walletId, boolean details) {
        List<String> paths = new java.util.ArrayList<>();
        list(client, walletId, details)
                .path("accounts")
                .forEach(a -> paths.add(a.path("path").asString()));
        return paths;
    }

    private String privateKey(String name) {
        return root.createPrivateKeys(List.of(new PrivateKeyParams(name, "CURVE_SECP256K1", List.of(), List.of())))
                .result()
                .path("privateKeys")
                .get(0)
                .path("privateKeyId")
                .asString();
    }

    private static Activity sign(KeyhavenClient client, String key) {
        return client.signRawPayload(key, DIGEST, "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP");
    }

    private static void delete(KeyhavenClient client, String key) {
        client.submit(
                "delete_private_keys",
                "ACTIVITY_TYPE_DELETE_PRIVATE_KEYS",
                Map.of("privateKeyIds", List.of(key), "deleteWithoutExport", true),
                "deletePrivateKeysResult");
    }

    private static String voterName(Activity activity) {
        return activity.raw().path("votes").get(0).path("user").path("userName").asString();
    }
}
