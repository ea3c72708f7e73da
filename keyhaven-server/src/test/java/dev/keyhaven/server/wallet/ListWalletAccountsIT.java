package dev.keyhaven.server.wallet;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.ApiKeyParams;
import dev.keyhaven.client.Requests.RootUserParams;
import dev.keyhaven.client.Requests.WalletAccountParams;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.TestServer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import tools.jackson.databind.JsonNode;

/**
 * list_wallet_accounts exactly as the seed specifies it: the walletId filter, includeWalletDetails, and
 * paginationOptions (limit 1–100 in a string, default 10; before/after cursors over a stable total order).
 */
class ListWalletAccountsIT extends OnBothStores {
    private KeyhavenClient sub;
    private String walletA;
    private String walletB;
    private List<String> accountsA;
    private List<String> all;

    @BeforeParameterizedClassInvocation
    void createAccounts() {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String subId = root.createSubOrganization(
                        "accounts", List.of(RootUserParams.withApiKeys("r", List.of(ApiKeyParams.of("k", key)))), 1)
                .result()
                .path("subOrganizationId")
                .asString();
        sub = root.withStamper(key).forOrganization(subId);
        walletA = sub.createWallet(
                        "a",
                        IntStream.range(0, 25)
                                .mapToObj(WalletAccountParams::ethereum)
                                .toList())
                .result()
                .path("walletId")
                .asString();
        walletB = sub.createWallet(
                        "b",
                        IntStream.range(0, 3)
                                .mapToObj(WalletAccountParams::ethereum)
                                .toList())
                .result()
                .path("walletId")
                .asString();
        accountsA = ids(list(Map.of("walletId", walletA, "paginationOptions", Map.of("limit", "100"))));
        all = ids(list(Map.of("paginationOptions", Map.of("limit", "100"))));
    }

    private JsonNode list(Map<String, ?> body) {
        return sub.query("list_wallet_accounts", body).path("accounts");
    }

    private static List<String> ids(JsonNode accounts) {
        List<String> out = new ArrayList<>();
        accounts.forEach(a -> out.add(a.path("walletAccountId").asString()));
        return out;
    }

    private static Map<String, Object> page(String walletId, Map<String, String> options) {
        Map<String, Object> body = new LinkedHashMap<>();
        if (walletId != null) {
            body.put("walletId", walletId);
        }
        body.put("paginationOptions", options);
        return body;
    }

    @Test
    void theWalletFilterSelectsOneWalletsAccountsInCreationOrder() {
        assertThat(accountsA).hasSize(25);
        JsonNode accounts = list(Map.of("walletId", walletA, "paginationOptions", Map.of("limit", "100")));
        for (int i = 0; i < 25; i++) {
            assertThat(accounts.get(i).path("path").asString()).isEqualTo("m/44'/60'/0'/0/" + i);
            assertThat(accounts.get(i).path("walletId").asString()).isEqualTo(walletA);
        }
        assertThat(all).hasSize(28).containsSubsequence(accountsA);
        assertThat(ids(list(Map.of("walletId", walletB)))).hasSize(3).doesNotContainAnyElementsOf(accountsA);
    }

    @Test
    void withoutPaginationTheFirstTenAreReturned() {
        assertThat(ids(list(Map.of()))).isEqualTo(all.subList(0, 10));
        assertThat(ids(list(Map.of("walletId", walletA)))).isEqualTo(accountsA.subList(0, 10));
    }

    @Test
    void walletDetailsAreIncludedOnlyWhenAskedFor() {
        JsonNode plain = list(Map.of("walletId", walletB));
        assertThat(plain.get(0).has("walletDetails")).isFalse();
        JsonNode detailed = list(Map.of("walletId", walletB, "includeWalletDetails", true));
        JsonNode details = detailed.get(0).path("walletDetails");
        assertThat(details.path("walletId").asString()).isEqualTo(walletB);
        assertThat(details.path("walletName").asString()).isEqualTo("b");
        assertThat(details.path("exported").isBoolean()).isTrue();
        assertThat(details.path("imported").isBoolean()).isTrue();
        assertThat(details.path("createdAt").path("nanos").isString()).isTrue();
        assertThat(detailed.get(0).path("createdAt").path("seconds").isString()).isTrue();
    }

    @Test
    void afterAndBeforeWalkTheSameTotalOrder() {
        List<String> walked = new ArrayList<>();
        String cursor = null;
        while (true) {
            Map<String, String> options = new LinkedHashMap<>(Map.of("limit", "7"));
            if (cursor != null) {
                options.put("after", cursor);
            }
            List<String> pageIds = ids(list(page(walletA, options)));
            if (pageIds.isEmpty()) {
                break;
            }
            walked.addAll(pageIds);
            cursor = pageIds.getLast();
        }
        assertThat(walked).isEqualTo(accountsA);
        assertThat(ids(list(page(walletA, Map.of("limit", "5", "before", accountsA.get(12))))))
                .isEqualTo(accountsA.subList(7, 12));
        assertThat(ids(list(page(walletA, Map.of("limit", "5", "before", accountsA.get(2))))))
                .isEqualTo(accountsA.subList(0, 2));
        assertThat(ids(list(page(null, Map.of("limit", "1", "after", accountsA.getLast())))))
                .isEqualTo(all.subList(all.indexOf(accountsA.getLast()) + 1, all.indexOf(accountsA.getLast()) + 2));
        assertThat(ids(list(page(walletA, Map.of("limit", "1"))))).containsExactly(accountsA.getFirst());
        assertThat(ids(list(page(walletA, Map.of("limit", "100"))))).hasSize(25);
    }

    @Test
    void badPaginationOptionsAreRejectedNamingTheField() {
        for (String bad : List.of("0", "101", "-1", "ten", "1.5", "0x10", "")) {
            Map<String, Object> body = Map.of("paginationOptions", Map.of("limit", bad));
            assertThat(apiError(ErrorCode.BAD_REQUEST, "paginationOptions.limit", () -> list(body))
                            .serverMessage())
                    .as(bad)
                    .startsWith("bad request body: paginationOptions.limit must be an integer between 1 and ");
        }
        apiError(
                ErrorCode.BAD_REQUEST,
                "paginationOptions.limit",
                () -> list(Map.of("paginationOptions", Map.of("limit", 5))));
        apiError(
                ErrorCode.BAD_REQUEST,
                "paginationOptions.after",
                () -> list(Map.of("paginationOptions", Map.of("after", "not-an-id"))));
        apiError(
                ErrorCode.BAD_REQUEST,
                "paginationOptions.before",
                () -> list(Map.of("paginationOptions", Map.of("before", "00000000-0000-7000-8000-000000000009"))));
        apiError(
                ErrorCode.BAD_REQUEST,
                "paginationOptions",
                () -> list(Map.of("paginationOptions", Map.of("before", accountsA.get(3), "after", accountsA.get(1)))));
        apiError(ErrorCode.BAD_REQUEST, "paginationOptions", () -> list(Map.of("paginationOptions", "ten")));
        apiError(ErrorCode.BAD_REQUEST, "includeWalletDetails", () -> list(Map.of("includeWalletDetails", "yes")));
        assertThat(apiError(() -> list(Map.of("walletId", "00000000-0000-7000-8000-000000000009")))
                        .httpStatus())
                .isEqualTo(404);
    }
}
