package dev.keyhaven.server.organization;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.ApiKeyParams;
import dev.keyhaven.client.Requests.RootUserParams;
import dev.keyhaven.client.Requests.UserParams;
import dev.keyhaven.client.Requests.WalletAccountParams;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.Bundles.TargetKey;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.TestServer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * list_suborgs, list_verified_suborgs, delete_sub_organization, create_api_only_users, get_organization_configs,
 * set_organization_feature and remove_organization_feature, with their error paths.
 */
class OrganizationOperationsIT extends OnBothStores {

    /** A sub-organization of the root organization with one root user holding {@code key}; returns its id. */
    private String subOrganization(String name, ApiKeyStamper key, String email) {
        RootUserParams user = new RootUserParams(
                "root of " + name, email, null, List.of(ApiKeyParams.of("k", key)), List.of(), List.of());
        return root.createSubOrganization(name, List.of(user), 1)
                .result()
                .path("subOrganizationId")
                .asString();
    }

    private static ApiKeyStamper newKey() {
        return TestServer.newKey(ApiKeyStamper.Curve.P256);
    }

    private List<String> ids(JsonNode response) {
        List<String> ids = new ArrayList<>();
        response.path("organizationIds").forEach(id -> ids.add(id.asString()));
        return ids;
    }

    private List<String> listSuborgs(Map<String, Object> body) {
        return ids(root.query("list_suborgs", body));
    }

    private static Map<String, Object> page(String limit, String cursorName, String cursor) {
        Map<String, Object> options = new LinkedHashMap<>();
        options.put("limit", limit);
        if (cursorName != null) {
            options.put(cursorName, cursor);
        }
        return Map.of("paginationOptions", options);
    }

    @Test
    void listSuborgsPagesInCreationOrderAndFilters() {
        String tag = "pg-" + store;
        ApiKeyStamper key = newKey();
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            created.add(subOrganization(tag + "-" + i, i == 1 ? key : newKey(), tag + i + "@Example.com"));
        }
        List<String> all = new ArrayList<>();
        String cursor = null;
        while (true) {
            List<String> page = listSuborgs(page("2", cursor == null ? null : "after", cursor));
            if (page.isEmpty()) {
                break;
            }
            assertThat(page.size()).isLessThanOrEqualTo(2);
            all.addAll(page);
            cursor = page.getLast();
        }
        assertThat(all).containsSubsequence(created).doesNotHaveDuplicates();
        // before: the page just before the cursor, still oldest first
        assertThat(listSuborgs(page("2", "before", created.get(2))))
                .containsExactly(all.get(all.indexOf(created.get(2)) - 2), created.get(1));

        assertThat(listSuborgs(Map.of("filterType", "NAME", "filterValue", tag + "-1")))
                .containsExactly(created.get(1));
        assertThat(listSuborgs(Map.of("filterType", "EMAIL", "filterValue", tag + "2@example.COM")))
                .containsExactly(created.get(2));
        assertThat(listSuborgs(Map.of("filterType", "PUBLIC_KEY", "filterValue", key.publicKey())))
                .containsExactly(created.get(1));
        assertThat(listSuborgs(Map.of("filterType", "USERNAME", "filterValue", "root of " + tag + "-0")))
                .containsExactly(created.get(0));
        assertThat(listSuborgs(Map.of("filterType", "NAME", "filterValue", "nobody")))
                .isEmpty();
        // email matching here includes unverified contacts; the verified list does not
        assertThat(ids(root.query(
                        "list_verified_suborgs", Map.of("filterType", "EMAIL", "filterValue", tag + "2@example.com"))))
                .isEmpty();
    }

    @Test
    void listSuborgsRefusesBadFiltersAndCursors() {
        apiError(
                ErrorCode.BAD_REQUEST,
                "filterType",
                () -> root.query("list_suborgs", Map.of("filterType", "COLOUR", "filterValue", "x")));
        apiError(ErrorCode.BAD_REQUEST, "filterValue", () -> root.query("list_suborgs", Map.of("filterType", "EMAIL")));
        apiError(ErrorCode.BAD_REQUEST, "filterType", () -> root.query("list_suborgs", Map.of("filterValue", "x")));
        apiError(
                ErrorCode.BAD_REQUEST,
                "filterValue",
                () -> root.query("list_suborgs", Map.of("filterType", "OAUTH_CLAIM", "filterValue", "{\"issuer\":1}")));
        apiError(
                ErrorCode.BAD_REQUEST,
                "paginationOptions.after",
                () -> root.query("list_suborgs", page("2", "after", server.organizationId())));
        apiError(
                ErrorCode.BAD_REQUEST,
                "paginationOptions.limit",
                () -> root.query("list_suborgs", page("0", null, null)));
        apiError(ErrorCode.BAD_REQUEST, "filterType", () -> root.query("list_verified_suborgs", Map.of()));
        apiError(
                ErrorCode.BAD_REQUEST,
                "filterType",
                () -> root.query("list_verified_suborgs", Map.of("filterType", "NAME", "filterValue", "x")));
    }

    private Activity deleteSub(KeyhavenClient client, Map<String, Object> params) {
        return client.submit(
                "delete_sub_organization",
                "ACTIVITY_TYPE_DELETE_SUB_ORGANIZATION",
                params,
                "deleteSubOrganizationResult");
    }

    @Test
    void deleteSubOrganizationIsRefusedWhileKeysWereNeverExported() {
        ApiKeyStamper key = newKey();
        String subId = subOrganization("doomed-" + store, key, null);
        KeyhavenClient sub = root.withStamper(key).forOrganization(subId);
        sub.createWallet(
                "w", List.of(WalletAccountParams.of("CURVE_SECP256K1", "m/44'/60'/0'/0/0", "ADDRESS_FORMAT_ETHEREUM")));

        apiError(ErrorCode.KEYS_NOT_EXPORTED, "parameters.deleteWithoutExport", () -> deleteSub(sub, Map.of()));
        assertThat(sub.getOrganization().path("wallets")).hasSize(1);
        // the root organization is no sub-organization
        apiError(ErrorCode.BAD_REQUEST, null, () -> deleteSub(root, Map.of("deleteWithoutExport", true)));

        Activity deleted = deleteSub(sub, Map.of("deleteWithoutExport", true));
        assertThat(deleted.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(deleted.result().path("subOrganizationUuid").asString()).isEqualTo(subId);
        assertThat(listSuborgs(Map.of("filterType", "NAME", "filterValue", "doomed-" + store)))
                .isEmpty();
        apiError(
                ErrorCode.ORGANIZATION_NOT_FOUND,
                null,
                () -> root.forOrganization(subId).getOrganization());
    }

    @Test
    void aSubOrganizationWithoutKeysIsDeletedAndItsCredentialsStopWorking() {
        ApiKeyStamper key = newKey();
        String subId = subOrganization("empty-" + store, key, null);
        KeyhavenClient sub = root.withStamper(key).forOrganization(subId);
        assertThat(deleteSub(sub, Map.of()).status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(apiError(() -> sub.whoami()).httpStatus()).isIn(401, 404);
    }

    @Test
    void createApiOnlyUsersCreatesUsersWithP256Keys() {
        ApiKeyStamper key = newKey();
        Map<String, Object> user = Map.of(
                "userName",
                "robot-" + store,
                "userEmail",
                "robot-" + store + "@example.com",
                "userTags",
                List.of(),
                "apiKeys",
                List.of(Map.of("apiKeyName", "robot key", "publicKey", key.publicKey())));
        Activity created = root.submit(
                "create_api_only_users",
                "ACTIVITY_TYPE_CREATE_API_ONLY_USERS",
                Map.of("apiOnlyUsers", List.of(user)),
                "createApiOnlyUsersResult");
        assertThat(created.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        String userId = created.result().path("userIds").get(0).asString();
        assertThat(root.withStamper(key).whoami().userId()).isEqualTo(userId);

        Map<String, Object> keyless = Map.of("userName", "nokeys", "userTags", List.of(), "apiKeys", List.of());
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.apiOnlyUsers[0].apiKeys",
                () -> root.submit(
                        "create_api_only_users",
                        "ACTIVITY_TYPE_CREATE_API_ONLY_USERS",
                        Map.of("apiOnlyUsers", List.of(keyless)),
                        "createApiOnlyUsersResult"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.apiOnlyUsers",
                () -> root.submit(
                        "create_api_only_users",
                        "ACTIVITY_TYPE_CREATE_API_ONLY_USERS",
                        Map.of("apiOnlyUsers", List.of()),
                        "createApiOnlyUsersResult"));
    }

    private Activity setFeature(KeyhavenClient client, String name, String value) {
        return client.submit(
                "set_organization_feature",
                "ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE",
                Map.of("name", name, "value", value),
                "setOrganizationFeatureResult");
    }

    private Activity removeFeature(KeyhavenClient client, String name) {
        return client.submit(
                "remove_organization_feature",
                "ACTIVITY_TYPE_REMOVE_ORGANIZATION_FEATURE",
                Map.of("name", name),
                "removeOrganizationFeatureResult");
    }

    private List<String> featureNames(JsonNode features) {
        List<String> names = new ArrayList<>();
        features.forEach(f -> names.add(f.path("name").asString()));
        return names;
    }

    @Test
    void featuresAreListedSetRemovedAndGateTheirActivities() {
        ApiKeyStamper key = newKey();
        String subId = subOrganization("features-" + store, key, null);
        KeyhavenClient sub = root.withStamper(key).forOrganization(subId);
        JsonNode configs = sub.query("get_organization_configs", Map.of()).path("configs");
        assertThat(featureNames(configs.path("features")))
                .containsExactlyInAnyOrder(
                        "FEATURE_NAME_EMAIL_AUTH",
                        "FEATURE_NAME_EMAIL_RECOVERY",
                        "FEATURE_NAME_OTP_EMAIL_AUTH",
                        "FEATURE_NAME_SMS_AUTH");
        assertThat(configs.path("quorum").path("threshold").isNumber()).isTrue();
        assertThat(configs.path("quorum").path("userIds")).hasSize(1);

        Activity removed = removeFeature(sub, "FEATURE_NAME_OTP_EMAIL_AUTH");
        assertThat(featureNames(removed.result().path("features"))).doesNotContain("FEATURE_NAME_OTP_EMAIL_AUTH");
        Map<String, Object> otp = Map.of("otpType", "OTP_TYPE_EMAIL", "contact", "a@example.com", "appName", "Acme");
        apiError(
                ErrorCode.FEATURE_DISABLED,
                null,
                () -> sub.submit("init_otp", "ACTIVITY_TYPE_INIT_OTP_V3", otp, "initOtpResultV2"));

        Activity set = setFeature(sub, "FEATURE_NAME_OTP_EMAIL_AUTH", "");
        assertThat(featureNames(set.result().path("features"))).contains("FEATURE_NAME_OTP_EMAIL_AUTH");
        // the deprecated name acts on EMAIL_RECOVERY
        Activity alias = removeFeature(sub, "FEATURE_NAME_ROOT_USER_EMAIL_RECOVERY");
        assertThat(featureNames(alias.result().path("features"))).doesNotContain("FEATURE_NAME_EMAIL_RECOVERY");
        Map<String, Object> byEmail = Map.of(
                "email",
                "a@example.com",
                "targetPublicKey",
                TargetKey.generate().uncompressed(),
                "emailCustomization",
                Map.of("appName", "Acme"));
        apiError(
                ErrorCode.FEATURE_DISABLED,
                null,
                () -> sub.submit(
                        "init_user_email_recovery",
                        "ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2",
                        byEmail,
                        "initUserEmailRecoveryResult"));
        removeFeature(sub, "FEATURE_NAME_EMAIL_AUTH");
        apiError(
                ErrorCode.FEATURE_DISABLED,
                null,
                () -> sub.submit("email_auth", "ACTIVITY_TYPE_EMAIL_AUTH_V3", byEmail, "emailAuthResult"));

        apiError(
                ErrorCode.UNIMPLEMENTED,
                "parameters.name",
                () -> setFeature(sub, "FEATURE_NAME_WEBAUTHN_ORIGINS", "*"));
        apiError(ErrorCode.BAD_REQUEST, "parameters.name", () -> setFeature(sub, "FEATURE_NAME_COLOUR", ""));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.value",
                () -> setFeature(sub, "FEATURE_NAME_EMAIL_AUTH", "x".repeat(5000)));
    }

    @Test
    void onlyTheRootQuorumSetsOrRemovesFeatures() {
        ApiKeyStamper key = newKey();
        root.createUsers(List.of(UserParams.withApiKeys("plain-" + store, List.of(ApiKeyParams.of("k", key)))));
        KeyhavenClient plain = root.withStamper(key);
        Activity set = setFeature(plain, "FEATURE_NAME_EMAIL_AUTH", "");
        assertThat(set.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        Activity removed = removeFeature(plain, "FEATURE_NAME_EMAIL_AUTH");
        assertThat(removed.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        assertThat(featureNames(root.query("get_organization_configs", Map.of())
                        .path("configs")
                        .path("features")))
                .contains("FEATURE_NAME_EMAIL_AUTH");
    }
}
