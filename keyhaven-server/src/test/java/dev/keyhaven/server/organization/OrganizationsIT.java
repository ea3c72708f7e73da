package dev.keyhaven.server.organization;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.ApiKeyParams;
import dev.keyhaven.client.Requests.RootUserParams;
import dev.keyhaven.client.Requests.UserParams;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** get_organization, create_sub_organization and update_root_quorum, with their error paths. */
class OrganizationsIT extends OnBothStores {

    private Map<String, Object> subOrg(String name, Object rootUsers, Object threshold) {
        return Map.of("subOrganizationName", name, "rootUsers", rootUsers, "rootQuorumThreshold", threshold);
    }

    private static RootUserParams rootUser(String name) {
        return RootUserParams.withApiKeys(
                name, List.of(ApiKeyParams.of("k", TestServer.newKey(ApiKeyStamper.Curve.P256))));
    }

    @Test
    void getOrganizationDescribesUsersTagsAndTheRootQuorum() {
        root.createUserTag("admins", List.of(server.rootUserId()));
        JsonNode org = root.getOrganization();
        assertThat(org.path("organizationId").asString()).isEqualTo(server.organizationId());
        assertThat(org.path("name").asString()).isEqualTo("Test organization");
        assertThat(org.path("rootQuorum").path("threshold").asInt()).isEqualTo(1);
        assertThat(org.path("rootQuorum").path("userIds").get(0).asString()).isEqualTo(server.rootUserId());
        assertThat(org.path("users").get(0).path("userTags").size()).isEqualTo(1);
        assertThat(org.path("tags").get(0).path("tagType").asString()).isEqualTo("TAG_TYPE_USER");
        for (String list : List.of(
                "policies", "privateKeys", "invitations", "features", "wallets", "smartContractInterfaceReferences")) {
            assertThat(org.path(list).isArray()).as(list).isTrue();
        }
    }

    @Test
    void aSubOrganizationGetsItsRootUsersAndQuorum() {
        ApiKeyStamper a = TestServer.newKey(ApiKeyStamper.Curve.P256);
        ApiKeyStamper b = TestServer.newKey(ApiKeyStamper.Curve.SECP256K1);
        Activity created = root.createSubOrganization(
                "customer",
                List.of(
                        RootUserParams.withApiKeys("a", List.of(ApiKeyParams.of("ka", a))),
                        RootUserParams.withApiKeys("b", List.of(ApiKeyParams.of("kb", b)))),
                2);
        assertThat(created.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(created.type()).isEqualTo("ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8");
        String subId = created.result().path("subOrganizationId").asString();
        assertThat(created.result().path("rootUserIds").size()).isEqualTo(2);
        assertThat(created.organizationId()).isEqualTo(server.organizationId());

        KeyhavenClient subA = root.withStamper(a).forOrganization(subId);
        JsonNode org = subA.getOrganization();
        assertThat(org.path("name").asString()).isEqualTo("customer");
        assertThat(org.path("rootQuorum").path("threshold").asInt()).isEqualTo(2);
        assertThat(org.path("rootQuorum").path("userIds")).hasSize(2);
        assertThat(subA.createUserTag("waits for b", List.of()).status()).isEqualTo("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    }

    @Test
    void aSubOrganizationCannotCreateSubOrganizations() {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String subId = root.createSubOrganization(
                        "leaf", List.of(RootUserParams.withApiKeys("r", List.of(ApiKeyParams.of("k", key)))), 1)
                .result()
                .path("subOrganizationId")
                .asString();
        KeyhavenApiException e = apiError(
                ErrorCode.BAD_REQUEST,
                null,
                () -> root.withStamper(key)
                        .forOrganization(subId)
                        .createSubOrganization("grandchild", List.of(rootUser("x")), 1));
        assertThat(e.serverMessage()).isEqualTo("a sub-organization cannot create sub-organizations");
    }

    @Test
    void subOrganizationParametersAreValidated() {
        assertThat(submitError(subOrg("zero", List.of(rootUser("r")), 0)))
                .contains("quorum threshold must be non-zero");
        assertThat(submitError(subOrg("too high", List.of(rootUser("r")), 2)))
                .contains("exceeds the number of root users");
        assertThat(submitError(subOrg("nobody", List.of(), 1))).contains("at least one root user");
        assertThat(submitError(Map.of("rootUsers", List.of(rootUser("r")), "rootQuorumThreshold", 1)))
                .contains("subOrganizationName is required");
        assertThat(submitError(subOrg(
                        "no creds",
                        List.of(Map.of(
                                "userName",
                                "r",
                                "apiKeys",
                                List.of(),
                                "authenticators",
                                List.of(),
                                "oauthProviders",
                                List.of())),
                        1)))
                .contains("at least one credential");
        KeyhavenApiException token = apiError(
                ErrorCode.UNIMPLEMENTED,
                "parameters.verificationToken",
                () -> root.submit(
                        "create_sub_organization",
                        "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8",
                        Map.of(
                                "subOrganizationName",
                                "w",
                                "rootUsers",
                                List.of(rootUser("r")),
                                "rootQuorumThreshold",
                                1,
                                "verificationToken",
                                "t"),
                        "createSubOrganizationResultV8"));
        assertThat(token.httpStatus()).isEqualTo(501);
    }

    private String submitError(Map<String, Object> params) {
        KeyhavenApiException e = apiError(() -> root.submit(
                "create_sub_organization",
                "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8",
                params,
                "createSubOrganizationResultV8"));
        assertThat(e.httpStatus()).isEqualTo(400);
        return e.getMessage();
    }

    @Test
    void updateRootQuorumIsValidatedAndOnlyTheQuorumMayDoIt() {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String memberId = root.createUsers(
                        List.of(UserParams.withApiKeys("member", List.of(ApiKeyParams.of("k", key)))))
                .result()
                .path("userIds")
                .get(0)
                .asString();

        Activity denied = root.withStamper(key).updateRootQuorum(1, List.of(memberId));
        assertThat(denied.status()).isEqualTo("ACTIVITY_STATUS_FAILED");

        KeyhavenApiException unknown =
                apiError(() -> root.updateRootQuorum(1, List.of("00000000-0000-7000-8000-0000000000aa")));
        assertThat(unknown.httpStatus()).isEqualTo(404);
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.threshold",
                () -> root.updateRootQuorum(0, List.of(server.rootUserId())));
        apiError(ErrorCode.BAD_REQUEST, "parameters.userIds", () -> root.updateRootQuorum(1, List.of()));

        assertThat(root.updateRootQuorum(1, List.of(server.rootUserId(), memberId))
                        .status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(root.getOrganization().path("rootQuorum").path("userIds")).hasSize(2);
        // The member is now root and may act alone with threshold 1.
        assertThat(root.withStamper(key).createUserTag("member acts", List.of()).status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(root.updateRootQuorum(1, List.of(server.rootUserId())).status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");
    }
}
