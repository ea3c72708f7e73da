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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** update_user and its single-field forms, update_user_tag, delete_user_tags, update_organization_name. */
class UserUpdatesIT extends OnBothStores {

    private String newUser(String name) {
        return root.createUsers(List.of(
                        new UserParams(name, name + "@example.com", null, List.of(), List.of(), List.of(), List.of())))
                .result()
                .path("userIds")
                .get(0)
                .asString();
    }

    private String newTag(String name, List<String> userIds) {
        return root.createUserTag(name, userIds).result().path("userTagId").asString();
    }

    private Activity submit(String operation, String type, Map<String, Object> params, String resultKey) {
        return root.submit(operation, type, params, resultKey);
    }

    @Test
    void updateUserChangesEveryGivenFieldAndReplacesTags() {
        String userId = newUser("before");
        String keep = newTag("keep", List.of(userId));
        String drop = newTag("drop", List.of(userId));
        String add = newTag("add", List.of());
        Activity updated = submit(
                "update_user",
                "ACTIVITY_TYPE_UPDATE_USER",
                Map.of(
                        "userId",
                        userId,
                        "userName",
                        "after",
                        "userEmail",
                        "after@example.com",
                        "userPhoneNumber",
                        "+15555550100",
                        "userTagIds",
                        List.of(keep, add)),
                "updateUserResult");
        assertThat(updated.result().path("userId").asString()).isEqualTo(userId);
        JsonNode user = root.getUser(userId);
        assertThat(user.path("userName").asString()).isEqualTo("after");
        assertThat(user.path("userEmail").asString()).isEqualTo("after@example.com");
        assertThat(user.path("userPhoneNumber").asString()).isEqualTo("+15555550100");
        assertThat(user.path("userTags"))
                .extracting(JsonNode::asString)
                .containsExactlyInAnyOrder(keep, add)
                .doesNotContain(drop);

        submit(
                "update_user",
                "ACTIVITY_TYPE_UPDATE_USER",
                Map.of("userId", userId, "userName", "only the name"),
                "updateUserResult");
        assertThat(root.getUser(userId).path("userEmail").asString()).isEqualTo("after@example.com");
        assertThat(root.getUser(userId).path("userTags")).hasSize(2);
    }

    @Test
    void updateUserRejectsBadInputWithoutChangingAnything() {
        String userId = newUser("steady");
        newUser("taken");
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> submit(
                                        "update_user",
                                        "ACTIVITY_TYPE_UPDATE_USER",
                                        Map.of(
                                                "userId",
                                                userId,
                                                "userName",
                                                "renamed",
                                                "userEmail",
                                                "TAKEN@example.com"),
                                        "updateUserResult"))
                        .serverMessage())
                .isEqualTo("user email TAKEN@example.com is already used by " + "another user of this organization");
        assertThat(root.getUser(userId).path("userName").asString()).isEqualTo("steady");
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.userEmail",
                () -> submit(
                        "update_user",
                        "ACTIVITY_TYPE_UPDATE_USER",
                        Map.of("userId", userId, "userEmail", "nope"),
                        "updateUserResult"));
        assertThat(apiError(() -> submit(
                                "update_user",
                                "ACTIVITY_TYPE_UPDATE_USER",
                                Map.of("userId", "00000000-0000-7000-8000-000000000009", "userName", "x"),
                                "updateUserResult"))
                        .httpStatus())
                .isEqualTo(404);
        assertThat(apiError(() -> submit(
                                "update_user",
                                "ACTIVITY_TYPE_UPDATE_USER",
                                Map.of("userId", userId, "userTagIds", List.of("00000000-0000-7000-8000-00000000000a")),
                                "updateUserResult"))
                        .httpStatus())
                .isEqualTo(404);
    }

    @Test
    void singleFieldUpdatesChangeOneField() {
        String userId = newUser("single");
        submit(
                "update_user_name",
                "ACTIVITY_TYPE_UPDATE_USER_NAME",
                Map.of("userId", userId, "userName", "renamed"),
                "updateUserNameResult");
        submit(
                "update_user_email",
                "ACTIVITY_TYPE_UPDATE_USER_EMAIL",
                Map.of("userId", userId, "userEmail", "new@example.com"),
                "updateUserEmailResult");
        Activity phone = submit(
                "update_user_phone_number",
                "ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER",
                Map.of("userId", userId, "userPhoneNumber", "+442071838750"),
                "updateUserPhoneNumberResult");
        assertThat(phone.result().path("userId").asString()).isEqualTo(userId);
        JsonNode user = root.getUser(userId);
        assertThat(user.path("userName").asString()).isEqualTo("renamed");
        assertThat(user.path("userEmail").asString()).isEqualTo("new@example.com");
        assertThat(user.path("userPhoneNumber").asString()).isEqualTo("+442071838750");

        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.userName",
                                () -> submit(
                                        "update_user_name",
                                        "ACTIVITY_TYPE_UPDATE_USER_NAME",
                                        Map.of("userId", userId),
                                        "updateUserNameResult"))
                        .serverMessage())
                .isEqualTo("bad request body: parameters.userName is required");
        assertThat(apiError(() -> submit(
                                "update_user_email",
                                "ACTIVITY_TYPE_UPDATE_USER_EMAIL",
                                Map.of("userId", userId, "userEmail", "v@example.com", "verificationToken", "t"),
                                "updateUserEmailResult"))
                        .httpStatus())
                .isEqualTo(501);
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.userPhoneNumber",
                                () -> submit(
                                        "update_user_phone_number",
                                        "ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER",
                                        Map.of("userId", userId, "userPhoneNumber", "12345"),
                                        "updateUserPhoneNumberResult"))
                        .serverMessage())
                .isEqualTo("bad request body: parameters.userPhoneNumber is not an E.164 phone number (+ and digits)");
    }

    @Test
    void updateUserTagRenamesAddsAndRemovesTogether() {
        String a = newUser("tag-a");
        String b = newUser("tag-b");
        String tagId = newTag("team", List.of(a));
        Activity updated = submit(
                "update_user_tag",
                "ACTIVITY_TYPE_UPDATE_USER_TAG",
                Map.of(
                        "userTagId",
                        tagId,
                        "newUserTagName",
                        "squad",
                        "addUserIds",
                        List.of(b),
                        "removeUserIds",
                        List.of(a)),
                "updateUserTagResult");
        assertThat(updated.result().path("userTagId").asString()).isEqualTo(tagId);
        assertThat(root.listUserTags())
                .filteredOn(t -> t.path("tagId").asString().equals(tagId))
                .extracting(t -> t.path("tagName").asString())
                .containsExactly("squad");
        assertThat(root.getUser(a).path("userTags")).isEmpty();
        assertThat(root.getUser(b).path("userTags").get(0).asString()).isEqualTo(tagId);

        KeyhavenApiException unknown = apiError(() -> submit(
                "update_user_tag",
                "ACTIVITY_TYPE_UPDATE_USER_TAG",
                Map.of(
                        "userTagId",
                        tagId,
                        "newUserTagName",
                        "renamed anyway",
                        "addUserIds",
                        List.of("00000000-0000-7000-8000-00000000000b"),
                        "removeUserIds",
                        List.of(b)),
                "updateUserTagResult"));
        assertThat(unknown.httpStatus()).isEqualTo(404);
        assertThat(root.listUserTags())
                .filteredOn(t -> t.path("tagId").asString().equals(tagId))
                .extracting(t -> t.path("tagName").asString())
                .containsExactly("squad");
        assertThat(root.getUser(b).path("userTags")).hasSize(1);

        newTag("other", List.of());
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> submit(
                                        "update_user_tag",
                                        "ACTIVITY_TYPE_UPDATE_USER_TAG",
                                        Map.of(
                                                "userTagId",
                                                tagId,
                                                "newUserTagName",
                                                "other",
                                                "addUserIds",
                                                List.of(),
                                                "removeUserIds",
                                                List.of()),
                                        "updateUserTagResult"))
                        .serverMessage())
                .isEqualTo("a user tag named 'other' already exists");
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.addUserIds",
                                () -> submit(
                                        "update_user_tag",
                                        "ACTIVITY_TYPE_UPDATE_USER_TAG",
                                        Map.of("userTagId", tagId),
                                        "updateUserTagResult"))
                        .serverMessage())
                .isEqualTo("bad request body: parameters.addUserIds is required (send an empty array when unused)");
    }

    @Test
    void deleteUserTagsRemovesTagsFromTheirUsers() {
        String userId = newUser("carrier");
        String tagId = newTag("doomed", List.of(userId));
        Activity deleted = submit(
                "delete_user_tags",
                "ACTIVITY_TYPE_DELETE_USER_TAGS",
                Map.of("userTagIds", List.of(tagId)),
                "deleteUserTagsResult");
        assertThat(deleted.result().path("userTagIds").get(0).asString()).isEqualTo(tagId);
        assertThat(deleted.result().path("userIds").get(0).asString()).isEqualTo(userId);
        assertThat(root.getUser(userId).path("userTags")).isEmpty();
        assertThat(root.listUserTags())
                .noneMatch(t -> t.path("tagId").asString().equals(tagId));
        assertThat(apiError(() -> submit(
                                "delete_user_tags",
                                "ACTIVITY_TYPE_DELETE_USER_TAGS",
                                Map.of("userTagIds", List.of(tagId)),
                                "deleteUserTagsResult"))
                        .httpStatus())
                .isEqualTo(404);
    }

    @Test
    void onlyTheRootQuorumRenamesTheOrganization() {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        root.createUsers(List.of(UserParams.withApiKeys("plain", List.of(ApiKeyParams.of("k", key)))));
        Activity denied = root.withStamper(key)
                .submit(
                        "update_organization_name",
                        "ACTIVITY_TYPE_UPDATE_ORGANIZATION_NAME",
                        Map.of("organizationName", "hijacked"),
                        "updateOrganizationNameResult");
        assertThat(denied.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        Activity renamed = submit(
                "update_organization_name",
                "ACTIVITY_TYPE_UPDATE_ORGANIZATION_NAME",
                Map.of("organizationName", "Renamed org"),
                "updateOrganizationNameResult");
        assertThat(renamed.result().path("organizationName").asString()).isEqualTo("Renamed org");
        assertThat(root.getOrganization().path("name").asString()).isEqualTo("Renamed org");
        assertThat(root.whoami().organizationName()).isEqualTo("Renamed org");
        assertThat(apiError(() -> submit(
                                "update_organization_name",
                                "ACTIVITY_TYPE_UPDATE_ORGANIZATION_NAME",
                                Map.of("organizationName", "x".repeat(300)),
                                "updateOrganizationNameResult"))
                        .httpStatus())
                .isEqualTo(400);
    }
}
