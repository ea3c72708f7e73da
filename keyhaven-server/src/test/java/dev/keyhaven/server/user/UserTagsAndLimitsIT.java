package dev.keyhaven.server.user;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.ApiKeyParams;
import dev.keyhaven.client.Requests.RootUserParams;
import dev.keyhaven.client.Requests.UserParams;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.app.KeyhavenConfig;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** create_user_tag, list_user_tags, tags on new users, user validation and the per-organization user limit. */
class UserTagsAndLimitsIT extends OnBothStores {
    private static final int USER_LIMIT = 4;

    @Override
    protected KeyhavenConfig configure(KeyhavenConfig defaults) {
        return defaults.withLimits(
                UserLimits.builder().usersPerOrganization(USER_LIMIT).build());
    }

    private static UserParams emailUser(String name, List<String> tags) {
        return new UserParams(name, name + "@example.com", null, List.of(), List.of(), List.of(), tags);
    }

    @Test
    void tagsAreCreatedListedAndAppliedToUsers() {
        String tagId = root.createUserTag("operators", List.of(server.rootUserId()))
                .result()
                .path("userTagId")
                .asString();
        assertThat(root.listUserTags()).anySatisfy(t -> {
            assertThat(t.path("tagId").asString()).isEqualTo(tagId);
            assertThat(t.path("tagName").asString()).isEqualTo("operators");
            assertThat(t.path("createdAt").path("seconds").asString()).isNotEmpty();
        });
        String userId = root.createUsers(List.of(emailUser("tagged", List.of(tagId))))
                .result()
                .path("userIds")
                .get(0)
                .asString();
        assertThat(root.getUser(userId).path("userTags").get(0).asString()).isEqualTo(tagId);
        assertThat(root.getUser(server.rootUserId()).path("userTags").get(0).asString())
                .isEqualTo(tagId);

        assertThat(apiError(ErrorCode.BAD_REQUEST, null, () -> root.createUserTag("operators", List.of()))
                        .serverMessage())
                .isEqualTo("a user tag named 'operators' already exists");
        assertThat(apiError(() -> root.createUserTag("ghosts", List.of("00000000-0000-7000-8000-00000000000f")))
                        .httpStatus())
                .isEqualTo(404);
        assertThat(apiError(() -> root.createUsers(
                                List.of(emailUser("untagged", List.of("00000000-0000-7000-8000-00000000000e")))))
                        .httpStatus())
                .isEqualTo(404);
    }

    @Test
    void userFieldsAreValidated() {
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.users[0].userEmail",
                () -> root.createUsers(List.of(
                        new UserParams("x", "not-an-email", null, List.of(), List.of(), List.of(), List.of()))));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.users[0].userPhoneNumber",
                () -> root.createUsers(
                        List.of(new UserParams("x", null, "555-1234", List.of(), List.of(), List.of(), List.of()))));
        apiError(ErrorCode.BAD_REQUEST, "parameters.users", () -> root.createUsers(List.of()));
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.users[0].apiKeys",
                                () -> root.submit(
                                        "create_users",
                                        "ACTIVITY_TYPE_CREATE_USERS_V4",
                                        Map.of("users", List.of(Map.of("userName", "x", "userEmail", "x@example.com"))),
                                        "createUsersResult"))
                        .serverMessage())
                .startsWith("bad request body: parameters.users[0].apiKeys is required");
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.users[0].apiKeys",
                                () -> root.submit(
                                        "create_users",
                                        "ACTIVITY_TYPE_CREATE_USERS_V4",
                                        Map.of(
                                                "users",
                                                List.of(Map.of(
                                                        "userName",
                                                        "x",
                                                        "userEmail",
                                                        "x@example.com",
                                                        "apiKeys",
                                                        "none",
                                                        "authenticators",
                                                        List.of(),
                                                        "oauthProviders",
                                                        List.of(),
                                                        "userTags",
                                                        List.of()))),
                                        "createUsersResult"))
                        .serverMessage())
                .isEqualTo("bad request body: parameters.users[0].apiKeys must be an array");
        // No issuer is trusted on this server: the token cannot verify.
        apiError(
                ErrorCode.INVALID_OIDC_TOKEN,
                null,
                () -> root.submit(
                        "create_users",
                        "ACTIVITY_TYPE_CREATE_USERS_V4",
                        Map.of(
                                "users",
                                List.of(Map.of(
                                        "userName",
                                        "x",
                                        "apiKeys",
                                        List.of(),
                                        "authenticators",
                                        List.of(),
                                        "oauthProviders",
                                        List.of(Map.of("providerName", "google", "oidcToken", "t")),
                                        "userTags",
                                        List.of()))),
                        "createUsersResult"));
        root.createUsers(List.of(emailUser("unique", List.of())));
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> root.createUsers(List.of(emailUser("UNIQUE", List.of()))))
                        .serverMessage())
                .isEqualTo("user email UNIQUE@example.com is already used by another " + "user of this organization");
    }

    @Test
    void anOrganizationHoldsAtMostItsLimitOfUsers() {
        // A sub-organization of its own, so that filling it leaves the other tests' organization alone.
        ApiKeyStamper subRoot = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String subId = root.createSubOrganization(
                        "full house",
                        List.of(RootUserParams.withApiKeys("r", List.of(ApiKeyParams.of("k", subRoot)))),
                        1)
                .result()
                .path("subOrganizationId")
                .asString();
        KeyhavenClient sub = root.withStamper(subRoot).forOrganization(subId);
        List<UserParams> fillers = new java.util.ArrayList<>();
        for (int i = 1; i < USER_LIMIT; i++) {
            fillers.add(emailUser("filler" + i, List.of()));
        }
        sub.createUsers(fillers);
        KeyhavenApiException full = apiError(
                ErrorCode.LIMIT_EXCEEDED, null, () -> sub.createUsers(List.of(emailUser("onetoomany", List.of()))));
        assertThat(full.serverMessage()).isEqualTo("organization has exceeded maximum users (" + USER_LIMIT + ")");
        assertThat(sub.listUsers()).hasSize(USER_LIMIT);
    }
}
