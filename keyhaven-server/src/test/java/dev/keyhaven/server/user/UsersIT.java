package dev.keyhaven.server.user;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.ApiKeyParams;
import dev.keyhaven.client.Requests.UserParams;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.ApiErrors;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** create_users, get_user, list_users, delete_users over real HTTP, on both stores. */
class UsersIT extends OnBothStores {

    @Test
    void rootCreatesAUserWhoCanThenAuthenticate() {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        Activity activity =
                root.createUsers(List.of(UserParams.withApiKeys("alice", List.of(ApiKeyParams.of("alice key", key)))));

        assertThat(activity.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(activity.type()).isEqualTo("ACTIVITY_TYPE_CREATE_USERS_V4");
        String userId = activity.result().path("userIds").get(0).asString();
        assertThat(activity.raw()
                        .path("intent")
                        .path("createUsersIntentV4")
                        .path("users")
                        .get(0)
                        .path("userName")
                        .asString())
                .isEqualTo("alice");
        assertThat(activity.voteCount()).isEqualTo(1);

        KeyhavenClient.Whoami whoami = root.withStamper(key).whoami();
        assertThat(whoami.userId()).isEqualTo(userId);
        assertThat(whoami.username()).isEqualTo("alice");
        assertThat(whoami.organizationId()).isEqualTo(server.organizationId());

        JsonNode user = root.getUser(userId);
        assertThat(user.path("userName").asString()).isEqualTo("alice");
        assertThat(user.path("apiKeys")
                        .get(0)
                        .path("credential")
                        .path("publicKey")
                        .asString())
                .isEqualTo(key.publicKey());
        assertThat(user.path("apiKeys").get(0).path("credential").path("type").asString())
                .isEqualTo("CREDENTIAL_TYPE_API_KEY_P256");
        assertThat(root.listUsers())
                .extracting(u -> u.path("userId").asString())
                .contains(userId, server.rootUserId());
    }

    @Test
    void deletedUserLosesAccess() {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.ED25519);
        String userId = root.createUsers(
                        List.of(UserParams.withApiKeys("bob", List.of(ApiKeyParams.of("bob key", key)))))
                .result()
                .path("userIds")
                .get(0)
                .asString();
        assertThat(root.withStamper(key).whoami().userId()).isEqualTo(userId);

        Activity deleted = root.deleteUsers(List.of(userId));
        assertThat(deleted.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(deleted.result().path("userIds").get(0).asString()).isEqualTo(userId);

        assertThatThrownBy(() -> root.withStamper(key).whoami())
                .isInstanceOfSatisfying(KeyhavenApiException.class, e -> {
                    assertThat(e.httpStatus()).isEqualTo(401);
                    assertThat(e.turnkeyErrorCode()).isEqualTo("PUBLIC_KEY_NOT_FOUND");
                });
        assertThatThrownBy(() -> root.getUser(userId))
                .isInstanceOfSatisfying(
                        KeyhavenApiException.class,
                        e -> assertThat(e.httpStatus()).isEqualTo(404));
    }

    @Test
    void deletingARootQuorumMemberFails() {
        assertThatThrownBy(() -> root.deleteUsers(List.of(server.rootUserId())))
                .isInstanceOfSatisfying(
                        KeyhavenApiException.class, e -> ApiErrors.assertError(e, ErrorCode.BAD_REQUEST, null));
        assertThat(root.getUser(server.rootUserId()).path("userId").asString()).isEqualTo(server.rootUserId());
    }

    @Test
    void deletionsMustNameWhatTheyDelete() {
        for (String[] op : new String[][] {
            {"delete_users", "ACTIVITY_TYPE_DELETE_USERS", "userIds"},
            {"delete_user_tags", "ACTIVITY_TYPE_DELETE_USER_TAGS", "userTagIds"}
        }) {
            ApiErrors.apiError(
                    ErrorCode.BAD_REQUEST,
                    "parameters." + op[2],
                    () -> root.submit(op[0], op[1], Map.of(op[2], List.of()), "result"));
        }
        KeyhavenApiException keys = ApiErrors.apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.apiKeyIds",
                () -> root.deleteApiKeys(server.rootUserId(), List.of()));
        assertThat(keys.serverMessage())
                .isEqualTo("bad request body: parameters.apiKeyIds must name at least one API key");
    }

    @Test
    void missingUserNameIsA400NamingTheField() {
        var e = assertThatThrownBy(() -> root.submit(
                "create_users",
                "ACTIVITY_TYPE_CREATE_USERS_V4",
                Map.of(
                        "users",
                        List.of(Map.of(
                                "apiKeys",
                                List.of(),
                                "authenticators",
                                List.of(),
                                "oauthProviders",
                                List.of(),
                                "userTags",
                                List.of(),
                                "userEmail",
                                "x@example.com"))),
                "createUsersResult"));
        e.isInstanceOfSatisfying(
                KeyhavenApiException.class,
                ex -> ApiErrors.assertError(ex, ErrorCode.BAD_REQUEST, "parameters.users[0].userName"));
    }
}
