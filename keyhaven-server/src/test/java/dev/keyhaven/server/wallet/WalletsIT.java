package dev.keyhaven.server.wallet;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.Requests.ApiKeyParams;
import dev.keyhaven.client.Requests.RootUserParams;
import dev.keyhaven.client.Requests.WalletAccountParams;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/** create_wallet, create_wallet_accounts, the wallet queries, update_wallet and the deletions, with error paths. */
class WalletsIT extends OnBothStores {
    private static final WalletAccountParams SOLANA =
            WalletAccountParams.of("CURVE_ED25519", "m/44'/501'/0'/0'", "ADDRESS_FORMAT_SOLANA");
    private static final WalletAccountParams BITCOIN =
            WalletAccountParams.of("CURVE_SECP256K1", "m/84'/0'/0'/0/0", "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH");
    private static final WalletAccountParams P256 =
            WalletAccountParams.of("CURVE_P256", "m/0'/0", "ADDRESS_FORMAT_COMPRESSED");

    private Map<String, Object> walletParams(String name, Object accounts, Object mnemonicLength) {
        Map<String, Object> p = new java.util.LinkedHashMap<>();
        p.put("walletName", name);
        p.put("accounts", accounts);
        if (mnemonicLength != null) {
            p.put("mnemonicLength", mnemonicLength);
        }
        return p;
    }

    @Test
    void aWalletIsCreatedWithItsAccountsOnEveryCurve() {
        Activity created =
                root.createWallet("treasury", List.of(WalletAccountParams.ethereum(0), SOLANA, BITCOIN, P256));
        assertThat(created.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(created.type()).isEqualTo("ACTIVITY_TYPE_CREATE_WALLET");
        String walletId = created.result().path("walletId").asString();
        JsonNode addresses = created.result().path("addresses");
        assertThat(addresses.size()).isEqualTo(4);
        assertThat(addresses.get(0).asString())
                .matches("0x[0-9a-fA-F]{40}")
                .isNotEqualTo(addresses.get(0).asString().toLowerCase(java.util.Locale.ROOT));
        assertThat(addresses.get(1).asString()).matches("[1-9A-HJ-NP-Za-km-z]{32,44}");
        assertThat(addresses.get(2).asString()).startsWith("bc1q");
        assertThat(addresses.get(3).asString()).matches("0[23][0-9a-f]{64}");

        JsonNode wallet = root.getWallet(walletId);
        assertThat(wallet.path("walletName").asString()).isEqualTo("treasury");
        assertThat(wallet.path("exported").asBoolean(true)).isFalse();
        assertThat(wallet.path("imported").asBoolean(true)).isFalse();
        assertThat(wallet.path("createdAt").path("seconds").asString()).isNotEmpty();

        JsonNode accounts =
                root.query("list_wallet_accounts", Map.of("walletId", walletId)).path("accounts");
        assertThat(accounts.size()).isEqualTo(4);
        JsonNode eth = accounts.get(0);
        assertThat(eth.path("address").asString()).isEqualTo(addresses.get(0).asString());
        assertThat(eth.path("curve").asString()).isEqualTo("CURVE_SECP256K1");
        assertThat(eth.path("pathFormat").asString()).isEqualTo("PATH_FORMAT_BIP32");
        assertThat(eth.path("path").asString()).isEqualTo("m/44'/60'/0'/0/0");
        assertThat(eth.path("addressFormat").asString()).isEqualTo("ADDRESS_FORMAT_ETHEREUM");
        assertThat(eth.path("organizationId").asString()).isEqualTo(server.organizationId());
        assertThat(eth.path("walletId").asString()).isEqualTo(walletId);
        assertThat(eth.path("publicKey").asString()).matches("0[23][0-9a-f]{64}");
        assertThat(accounts.get(1).path("publicKey").asString()).matches("[0-9a-f]{64}");
        assertThat(eth.has("walletDetails")).isFalse();
        assertThat(root.listWallets())
                .anySatisfy(w -> assertThat(w.path("walletId").asString()).isEqualTo(walletId));
        assertThat(root.getOrganization().path("wallets"))
                .anySatisfy(w -> assertThat(w.path("walletId").asString()).isEqualTo(walletId));
    }

    @ParameterizedTest
    @ValueSource(ints = {12, 15, 18, 21, 24})
    void everyMnemonicLengthMakesAWallet(int words) {
        Activity created = root.submit(
                "create_wallet",
                "ACTIVITY_TYPE_CREATE_WALLET",
                walletParams("words-" + words, List.of(WalletAccountParams.ethereum(0)), words),
                "createWalletResult");
        assertThat(created.isCompleted()).isTrue();
        assertThat(created.result().path("addresses").size()).isEqualTo(1);
    }

    @Test
    void twoWalletsNeverShareKeys() {
        String a = root.createWallet("independent-a", List.of(WalletAccountParams.ethereum(0)))
                .result()
                .path("addresses")
                .get(0)
                .asString();
        String b = root.createWallet("independent-b", List.of(WalletAccountParams.ethereum(0)))
                .result()
                .path("addresses")
                .get(0)
                .asString();
        assertThat(a).isNotEqualTo(b);
    }

    @Test
    void moreAccountsAreDerivedFromTheSameSeed() {
        String walletId = root.createWallet("growing", List.of(WalletAccountParams.ethereum(0)))
                .result()
                .path("walletId")
                .asString();
        Activity more = root.createWalletAccounts(
                walletId, List.of(WalletAccountParams.ethereum(1), WalletAccountParams.ethereum(2)));
        assertThat(more.result().path("addresses").size()).isEqualTo(2);
        // persist: false derives the same address as a stored account at that path, without storing it.
        Activity preview = root.submit(
                "create_wallet_accounts",
                "ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS",
                Map.of("walletId", walletId, "accounts", List.of(WalletAccountParams.ethereum(7)), "persist", false),
                "createWalletAccountsResult");
        String previewed = preview.result().path("addresses").get(0).asString();
        assertThat(root.query("list_wallet_accounts", Map.of("walletId", walletId))
                        .path("accounts")
                        .size())
                .isEqualTo(3);
        String stored = root.createWalletAccounts(walletId, List.of(WalletAccountParams.ethereum(7)))
                .result()
                .path("addresses")
                .get(0)
                .asString();
        assertThat(stored).isEqualTo(previewed);

        JsonNode byAddress = root.query(
                        "get_wallet_account",
                        Map.of("walletId", walletId, "address", stored.toLowerCase(java.util.Locale.ROOT)))
                .path("account");
        assertThat(byAddress.path("path").asString()).isEqualTo("m/44'/60'/0'/0/7");
        JsonNode byPath = root.query("get_wallet_account", Map.of("walletId", walletId, "path", "m/44h/60h/0h/0/7"))
                .path("account");
        assertThat(byPath.path("address").asString()).isEqualTo(stored);
    }

    @Test
    void accountParametersAreValidated() {
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.mnemonicLength",
                () -> root.submit(
                        "create_wallet",
                        "ACTIVITY_TYPE_CREATE_WALLET",
                        walletParams("bad-length", List.of(), 13),
                        "createWalletResult"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.accounts[0].curve",
                () -> root.createWallet(
                        "bad-curve",
                        List.of(WalletAccountParams.of("CURVE_X25519", "m/0'", "ADDRESS_FORMAT_ETHEREUM"))));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.accounts[0].addressFormat",
                () -> root.createWallet(
                        "bad-format",
                        List.of(WalletAccountParams.of("CURVE_SECP256K1", "m/0'", "ADDRESS_FORMAT_DOGECOIN"))));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.accounts[0].path",
                () -> root.createWallet(
                        "bad-path",
                        List.of(WalletAccountParams.of("CURVE_SECP256K1", "m/44'/x", "ADDRESS_FORMAT_ETHEREUM"))));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.accounts[0].pathFormat",
                () -> root.createWallet(
                        "bad-path-format",
                        List.of(new WalletAccountParams(
                                "CURVE_SECP256K1", "PATH_FORMAT_SLIP", "m/0'", "ADDRESS_FORMAT_ETHEREUM", null))));
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.walletName",
                                () -> root.submit(
                                        "create_wallet",
                                        "ACTIVITY_TYPE_CREATE_WALLET",
                                        Map.of("accounts", List.of()),
                                        "createWalletResult"))
                        .serverMessage())
                .isEqualTo("bad request body: parameters.walletName is required");
    }

    @Test
    void aCurveThatDoesNotSuitTheFormatFailsTheActivityNamingBoth() {
        KeyhavenApiException error = apiError(
                ErrorCode.BAD_REQUEST,
                null,
                () -> root.createWallet(
                        "mismatch",
                        List.of(WalletAccountParams.of(
                                "CURVE_ED25519", "m/44'/60'/0'/0'/0'", "ADDRESS_FORMAT_ETHEREUM"))));
        assertThat(error.serverMessage())
                .isEqualTo("accounts[0]: address format ADDRESS_FORMAT_ETHEREUM does not "
                        + "support curve CURVE_ED25519");
        List<JsonNode> failed = root.listActivities(
                List.of("ACTIVITY_STATUS_FAILED"), List.of("ACTIVITY_TYPE_CREATE_WALLET"), "1", null, null);
        assertThat(failed.getFirst().path("failure").path("message").asString()).contains("CURVE_ED25519");
        assertThat(root.listWallets())
                .noneSatisfy(w -> assertThat(w.path("walletName").asString()).isEqualTo("mismatch"));
    }

    @Test
    void duplicateNamesAndDerivationsAreRefused() {
        String walletId = root.createWallet(
                        "unique-name",
                        List.of(new WalletAccountParams(
                                "CURVE_SECP256K1",
                                "PATH_FORMAT_BIP32",
                                "m/44'/60'/0'/0/0",
                                "ADDRESS_FORMAT_ETHEREUM",
                                "main account")))
                .result()
                .path("walletId")
                .asString();
        assertThat(apiError(ErrorCode.BAD_REQUEST, null, () -> root.createWallet("unique-name", List.of()))
                        .serverMessage())
                .isEqualTo("a wallet named 'unique-name' already exists");
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> root.createWalletAccounts(walletId, List.of(WalletAccountParams.ethereum(0))))
                        .serverMessage())
                .startsWith("accounts[0]: wallet " + walletId + " already has an account at ");
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> root.createWalletAccounts(
                                        walletId,
                                        List.of(WalletAccountParams.ethereum(3), WalletAccountParams.ethereum(3))))
                        .serverMessage())
                .startsWith("accounts[1]: wallet " + walletId + " already has an account at ");
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> root.createWalletAccounts(
                                        walletId,
                                        List.of(new WalletAccountParams(
                                                "CURVE_SECP256K1",
                                                "PATH_FORMAT_BIP32",
                                                "m/44'/60'/0'/0/9",
                                                "ADDRESS_FORMAT_ETHEREUM",
                                                "main account"))))
                        .serverMessage())
                .isEqualTo("accounts[0]: a wallet account named 'main account' already exists");
        assertThat(apiError(() -> root.createWalletAccounts(
                                "00000000-0000-7000-8000-000000000001", List.of(WalletAccountParams.ethereum(0))))
                        .httpStatus())
                .isEqualTo(404);
        apiError(ErrorCode.BAD_REQUEST, "parameters.accounts", () -> root.createWalletAccounts(walletId, List.of()));
    }

    @Test
    void walletsAreRenamed() {
        String walletId = root.createWallet("old-name", List.of())
                .result()
                .path("walletId")
                .asString();
        root.createWallet("taken-name", List.of());
        Activity renamed = root.submit(
                "update_wallet",
                "ACTIVITY_TYPE_UPDATE_WALLET",
                Map.of("walletId", walletId, "walletName", "new-name"),
                "updateWalletResult");
        assertThat(renamed.result().path("walletId").asString()).isEqualTo(walletId);
        assertThat(root.getWallet(walletId).path("walletName").asString()).isEqualTo("new-name");
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> root.submit(
                                        "update_wallet",
                                        "ACTIVITY_TYPE_UPDATE_WALLET",
                                        Map.of("walletId", walletId, "walletName", "taken-name"),
                                        "updateWalletResult"))
                        .serverMessage())
                .isEqualTo("a wallet named 'taken-name' already exists");
        assertThat(apiError(() -> root.submit(
                                "update_wallet",
                                "ACTIVITY_TYPE_UPDATE_WALLET",
                                Map.of("walletId", "00000000-0000-7000-8000-000000000002", "walletName", "x"),
                                "updateWalletResult"))
                        .httpStatus())
                .isEqualTo(404);
    }

    @Test
    void deletingAWalletThatWasNeverExportedNeedsDeleteWithoutExport() {
        Activity created = root.createWallet("doomed", List.of(WalletAccountParams.ethereum(0)));
        String walletId = created.result().path("walletId").asString();
        String address = created.result().path("addresses").get(0).asString();
        KeyhavenApiException refused = apiError(
                ErrorCode.BAD_REQUEST,
                null,
                () -> root.submit(
                        "delete_wallets",
                        "ACTIVITY_TYPE_DELETE_WALLETS",
                        Map.of("walletIds", List.of(walletId)),
                        "deleteWalletsResult"));
        assertThat(refused.serverMessage())
                .isEqualTo("wallet has not been exported: " + walletId
                        + " (export it first, or set deleteWithoutExport to delete it for good)");
        assertThat(root.getWallet(walletId).path("walletId").asString()).isEqualTo(walletId);
        Activity deleted = root.submit(
                "delete_wallets",
                "ACTIVITY_TYPE_DELETE_WALLETS",
                Map.of("walletIds", List.of(walletId), "deleteWithoutExport", true),
                "deleteWalletsResult");
        assertThat(deleted.result().path("walletIds").get(0).asString()).isEqualTo(walletId);
        assertThat(apiError(() -> root.getWallet(walletId)).httpStatus()).isEqualTo(404);
        assertThat(apiError(() -> root.signRawPayload(
                                address, "00".repeat(32), "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP"))
                        .httpStatus())
                .isEqualTo(404);
        assertThat(apiError(() -> root.submit(
                                "delete_wallets",
                                "ACTIVITY_TYPE_DELETE_WALLETS",
                                Map.of("walletIds", List.of(walletId), "deleteWithoutExport", true),
                                "deleteWalletsResult"))
                        .httpStatus())
                .isEqualTo(404);
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.walletIds",
                () -> root.submit(
                        "delete_wallets",
                        "ACTIVITY_TYPE_DELETE_WALLETS",
                        Map.of("walletIds", List.of()),
                        "deleteWalletsResult"));
    }

    @Test
    void deletingAccountsIsRefusedUnlessExportedOrForced() {
        Activity created =
                root.createWallet("pruned", List.of(WalletAccountParams.ethereum(0), WalletAccountParams.ethereum(1)));
        String walletId = created.result().path("walletId").asString();
        JsonNode accounts =
                root.query("list_wallet_accounts", Map.of("walletId", walletId)).path("accounts");
        String first = accounts.get(0).path("walletAccountId").asString();
        String second = accounts.get(1).path("walletAccountId").asString();
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> root.submit(
                                        "delete_wallet_accounts",
                                        "ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS",
                                        Map.of("walletAccountIds", List.of(first)),
                                        "deleteWalletAccountsResult"))
                        .serverMessage())
                .isEqualTo("wallet account has not been exported: " + first
                        + " (export it first, or set deleteWithoutExport to delete it for good)");
        assertThat(apiError(() -> root.submit(
                                "delete_wallet_accounts",
                                "ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS",
                                Map.of(
                                        "walletAccountIds",
                                        List.of(first, "00000000-0000-7000-8000-000000000003"),
                                        "deleteWithoutExport",
                                        true),
                                "deleteWalletAccountsResult"))
                        .httpStatus())
                .isEqualTo(404);
        assertThat(root.query("list_wallet_accounts", Map.of("walletId", walletId))
                        .path("accounts")
                        .size())
                .isEqualTo(2);
        root.submit(
                "delete_wallet_accounts",
                "ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS",
                Map.of("walletAccountIds", List.of(first), "deleteWithoutExport", true),
                "deleteWalletAccountsResult");
        JsonNode left =
                root.query("list_wallet_accounts", Map.of("walletId", walletId)).path("accounts");
        assertThat(left.size()).isEqualTo(1);
        assertThat(left.get(0).path("walletAccountId").asString()).isEqualTo(second);
    }

    @Test
    void aSubOrganizationCanBeCreatedWithAWallet() {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        Activity created = root.submit(
                "create_sub_organization",
                "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8",
                Map.of(
                        "subOrganizationName",
                        "with wallet",
                        "rootUsers",
                        List.of(RootUserParams.withApiKeys("r", List.of(ApiKeyParams.of("k", key)))),
                        "rootQuorumThreshold",
                        1,
                        "wallet",
                        Map.of(
                                "walletName",
                                "default",
                                "accounts",
                                List.of(WalletAccountParams.ethereum(0), SOLANA),
                                "mnemonicLength",
                                24)),
                "createSubOrganizationResultV8");
        String subId = created.result().path("subOrganizationId").asString();
        JsonNode wallet = created.result().path("wallet");
        assertThat(wallet.path("addresses").size()).isEqualTo(2);
        var sub = root.withStamper(key).forOrganization(subId);
        assertThat(sub.getWallet(wallet.path("walletId").asString())
                        .path("walletName")
                        .asString())
                .isEqualTo("default");
        Activity signed = sub.signRawPayload(
                wallet.path("addresses").get(0).asString(),
                "ab".repeat(32),
                "PAYLOAD_ENCODING_HEXADECIMAL",
                "HASH_FUNCTION_NO_OP");
        assertThat(signed.isCompleted()).isTrue();
        assertThat(apiError(() -> root.signRawPayload(
                                wallet.path("addresses").get(0).asString(),
                                "ab".repeat(32),
                                "PAYLOAD_ENCODING_HEXADECIMAL",
                                "HASH_FUNCTION_NO_OP"))
                        .httpStatus())
                .isEqualTo(404);
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.wallet.walletName",
                () -> root.submit(
                        "create_sub_organization",
                        "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8",
                        Map.of(
                                "subOrganizationName",
                                "bad wallet",
                                "rootUsers",
                                List.of(RootUserParams.withApiKeys(
                                        "r",
                                        List.of(ApiKeyParams.of("k", TestServer.newKey(ApiKeyStamper.Curve.P256))))),
                                "rootQuorumThreshold",
                                1,
                                "wallet",
                                Map.of("accounts", List.of())),
                        "createSubOrganizationResultV8"));
    }

    @Test
    void anOrganizationHoldsAtMostOneHundredWallets() {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String subId = root.createSubOrganization(
                        "many wallets", List.of(RootUserParams.withApiKeys("r", List.of(ApiKeyParams.of("k", key)))), 1)
                .result()
                .path("subOrganizationId")
                .asString();
        var sub = root.withStamper(key).forOrganization(subId);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < WalletCreator.MAX_WALLETS_PER_ORGANIZATION; i++) {
            ids.add(sub.createWallet("w" + i, List.of())
                    .result()
                    .path("walletId")
                    .asString());
        }
        apiError(ErrorCode.LIMIT_EXCEEDED, null, () -> sub.createWallet("one too many", List.of()));
        assertThat(sub.listWallets().size()).isEqualTo(ids.size());
    }
}
