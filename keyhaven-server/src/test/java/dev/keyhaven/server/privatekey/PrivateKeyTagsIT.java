package dev.keyhaven.server.privatekey;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.Requests.PrivateKeyParams;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.OnBothStores;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** create_private_key_tag, list_private_key_tags, update_private_key_tag (atomic) and delete_private_key_tags. */
class PrivateKeyTagsIT extends OnBothStores {
    private static final String UNKNOWN = "00000000-0000-7000-8000-0000000000cc";

    private String key(String name) {
        return root.createPrivateKeys(List.of(new PrivateKeyParams(name, "CURVE_SECP256K1", List.of(), List.of())))
                .result()
                .path("privateKeys")
                .get(0)
                .path("privateKeyId")
                .asString();
    }

    private String createTag(String name, List<String> keyIds) {
        return root.submit(
                        "create_private_key_tag",
                        "ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG",
                        Map.of("privateKeyTagName", name, "privateKeyIds", keyIds),
                        "createPrivateKeyTagResult")
                .result()
                .path("privateKeyTagId")
                .asString();
    }

    private Activity update(String tagId, String newName, List<String> add, List<String> remove) {
        Map<String, Object> params = new java.util.LinkedHashMap<>();
        params.put("privateKeyTagId", tagId);
        if (newName != null) {
            params.put("newPrivateKeyTagName", newName);
        }
        params.put("addPrivateKeyIds", add);
        params.put("removePrivateKeyIds", remove);
        return root.submit(
                "update_private_key_tag", "ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG", params, "updatePrivateKeyTagResult");
    }

    private List<String> tagsOf(String keyId) {
        List<String> out = new ArrayList<>();
        root.getPrivateKey(keyId).path("privateKeyTags").forEach(t -> out.add(t.asString()));
        return out;
    }

    private JsonNode tag(String tagId) {
        for (JsonNode t : root.query("list_private_key_tags", Map.of()).path("privateKeyTags")) {
            if (t.path("tagId").asString().equals(tagId)) {
                return t;
            }
        }
        return null;
    }

    @Test
    void tagsAreCreatedListedAndCarriedByKeys() {
        String a = key("tagged-a");
        String tagId = createTag("hot", List.of(a));
        assertThat(tag(tagId).path("tagName").asString()).isEqualTo("hot");
        assertThat(tag(tagId).path("tagType").asString()).isEqualTo("TAG_TYPE_PRIVATE_KEY");
        assertThat(tagsOf(a)).containsExactly(tagId);
        String b = root.createPrivateKeys(
                        List.of(new PrivateKeyParams("tagged-b", "CURVE_ED25519", List.of(tagId), List.of())))
                .result()
                .path("privateKeys")
                .get(0)
                .path("privateKeyId")
                .asString();
        assertThat(tagsOf(b)).containsExactly(tagId);
        assertThat(root.listUserTags())
                .noneSatisfy(t -> assertThat(t.path("tagId").asString()).isEqualTo(tagId));

        apiError(ErrorCode.BAD_REQUEST, null, () -> createTag("hot", List.of()));
        apiError(ErrorCode.NOT_FOUND, null, () -> createTag("cold", List.of(UNKNOWN)));
        String userTag = root.createUserTag("a user tag", List.of())
                .result()
                .path("userTagId")
                .asString();
        assertThat(apiError(() -> root.createPrivateKeys(
                                List.of(new PrivateKeyParams("x", "CURVE_ED25519", List.of(userTag), List.of()))))
                        .httpStatus())
                .isEqualTo(404);
    }

    @Test
    void anUpdateRenamesAddsAndRemovesTogether() {
        String a = key("update-a");
        String b = key("update-b");
        String tagId = createTag("before", List.of(a));
        Activity updated = update(tagId, "after", List.of(b), List.of(a));
        assertThat(updated.result().path("privateKeyTagId").asString()).isEqualTo(tagId);
        assertThat(tag(tagId).path("tagName").asString()).isEqualTo("after");
        assertThat(tagsOf(a)).isEmpty();
        assertThat(tagsOf(b)).containsExactly(tagId);
        // Adding a key that already carries the tag, or removing one that does not, changes nothing else.
        update(tagId, null, List.of(b), List.of(a));
        assertThat(tagsOf(b)).containsExactly(tagId);
    }

    @Test
    void anUpdateNamingAnUnknownKeyFailsAndChangesNothing() {
        String a = key("atomic-a");
        String b = key("atomic-b");
        String tagId = createTag("atomic", List.of(a));
        KeyhavenApiException error =
                apiError(ErrorCode.NOT_FOUND, null, () -> update(tagId, "renamed", List.of(b, UNKNOWN), List.of(a)));
        assertThat(error.serverMessage()).endsWith(UNKNOWN);
        assertThat(tag(tagId).path("tagName").asString()).isEqualTo("atomic");
        assertThat(tagsOf(a)).containsExactly(tagId);
        assertThat(tagsOf(b)).isEmpty();
        List<JsonNode> failed = root.listActivities(
                List.of("ACTIVITY_STATUS_FAILED"), List.of("ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG"), "1", null, null);
        assertThat(failed.getFirst().path("failure").path("message").asString()).contains(UNKNOWN);

        createTag("occupied", List.of());
        assertThat(apiError(ErrorCode.BAD_REQUEST, null, () -> update(tagId, "occupied", List.of(b), List.of()))
                        .serverMessage())
                .isEqualTo("a private key tag named 'occupied' already exists");
        assertThat(tagsOf(b)).isEmpty();
        assertThat(apiError(() -> update(UNKNOWN, null, List.of(), List.of())).httpStatus())
                .isEqualTo(404);
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.removePrivateKeyIds",
                                () -> root.submit(
                                        "update_private_key_tag",
                                        "ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG",
                                        Map.of("privateKeyTagId", tagId, "addPrivateKeyIds", List.of()),
                                        "updatePrivateKeyTagResult"))
                        .serverMessage())
                .startsWith("bad request body: parameters.removePrivateKeyIds is required");
    }

    @Test
    void deletingTagsReportsTheKeysThatCarriedThem() {
        String a = key("delete-a");
        String tagId = createTag("short", List.of(a));
        Activity deleted = root.submit(
                "delete_private_key_tags",
                "ACTIVITY_TYPE_DELETE_PRIVATE_KEY_TAGS",
                Map.of("privateKeyTagIds", List.of(tagId)),
                "deletePrivateKeyTagsResult");
        assertThat(deleted.result().path("privateKeyTagIds").get(0).asString()).isEqualTo(tagId);
        assertThat(deleted.result().path("privateKeyIds").get(0).asString()).isEqualTo(a);
        assertThat(tag(tagId)).isNull();
        assertThat(tagsOf(a)).isEmpty();
        assertThat(apiError(() -> root.submit(
                                "delete_private_key_tags",
                                "ACTIVITY_TYPE_DELETE_PRIVATE_KEY_TAGS",
                                Map.of("privateKeyTagIds", List.of(tagId)),
                                "deletePrivateKeyTagsResult"))
                        .httpStatus())
                .isEqualTo(404);
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.privateKeyTagIds",
                () -> root.submit(
                        "delete_private_key_tags",
                        "ACTIVITY_TYPE_DELETE_PRIVATE_KEY_TAGS",
                        Map.of("privateKeyTagIds", List.of()),
                        "deletePrivateKeyTagsResult"));
    }
}
