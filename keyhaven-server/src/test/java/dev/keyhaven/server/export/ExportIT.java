package dev.keyhaven.server.export;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests;
import dev.keyhaven.client.Requests.PrivateKeyParams;
import dev.keyhaven.client.Requests.WalletAccountParams;
import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.hd.DerivationPath;
import dev.keyhaven.crypto.hd.HdKeys;
import dev.keyhaven.crypto.hd.Mnemonic;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.Bundles;
import dev.keyhaven.server.testing.Bundles.TargetKey;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** export_wallet, export_wallet_account, export_private_key: bundles that open to the right key, and their errors. */
class ExportIT extends OnBothStores {
    private static final HexFormat HEX = HexFormat.of();

    private String signer() {
        return Bundles.discoveredSigner(server.baseUrl());
    }

    private JsonNode createWallet(String name) {
        Activity created = root.createWallet(
                name,
                List.of(
                        WalletAccountParams.of("CURVE_SECP256K1", "m/44'/60'/0'/0/0", "ADDRESS_FORMAT_ETHEREUM"),
                        WalletAccountParams.of("CURVE_ED25519", "m/44'/501'/0'/0'", "ADDRESS_FORMAT_SOLANA")));
        return created.result();
    }

    private JsonNode account(String walletId, String address) {
        return root.query("get_wallet_account", Map.of("walletId", walletId, "address", address))
                .path("account");
    }

    private static byte[] publicKeyOf(KeyCurve curve, byte[] privateKey) {
        try (SecretBytes key = SecretBytes.copyOf(privateKey)) {
            return curve.publicKey(key);
        }
    }

    @Test
    void theSignerIsPublishedAsAnUncompressedP256Key() {
        String signer = signer();
        assertThat(signer).matches("04[0-9a-f]{128}");
        assertThat(EcCurve.P256.decompress(HEX.parseHex(signer))).isEqualTo(HEX.parseHex(signer));
    }

    @Test
    void anExportedMnemonicDerivesTheWalletsAccounts() {
        JsonNode wallet = createWallet("export-mnemonic");
        String walletId = wallet.path("walletId").asString();
        TargetKey target = TargetKey.generate();
        Activity exported = root.submit(
                "export_wallet",
                "ACTIVITY_TYPE_EXPORT_WALLET",
                Map.of("walletId", walletId, "targetPublicKey", target.uncompressed()),
                "exportWalletResult");
        assertThat(exported.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(exported.result().path("walletId").asString()).isEqualTo(walletId);

        byte[] phrase = Bundles.openExport(
                exported.result().path("exportBundle").asString(), signer(), server.organizationId(), target);
        assertThat(new String(phrase, StandardCharsets.UTF_8).split(" ")).hasSize(12);
        String ethAddress = wallet.path("addresses").get(0).asString();
        try (Mnemonic mnemonic = Mnemonic.parse(SecretBytes.copyOf(phrase));
                SecretBytes seed = mnemonic.toSeed();
                SecretBytes key =
                        HdKeys.derivePrivateKey(KeyCurve.SECP256K1, seed, DerivationPath.parse("m/44'/60'/0'/0/0"))) {
            assertThat(HEX.formatHex(KeyCurve.SECP256K1.publicKey(key)))
                    .isEqualTo(account(walletId, ethAddress).path("publicKey").asString());
        }
        assertThat(root.getWallet(walletId).path("exported").asBoolean()).isTrue();
        // Exported, so it may now be deleted without deleteWithoutExport.
        assertThat(root.submit(
                                "delete_wallets",
                                "ACTIVITY_TYPE_DELETE_WALLETS",
                                Map.of("walletIds", List.of(walletId)),
                                "deleteWalletsResult")
                        .status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");
    }

    @Test
    void anExportedAccountKeyIsTheAccountsKeyForCompressedAndUncompressedTargets() {
        JsonNode wallet = createWallet("export-accounts");
        String walletId = wallet.path("walletId").asString();
        String eth = wallet.path("addresses").get(0).asString();
        String sol = wallet.path("addresses").get(1).asString();
        TargetKey target = TargetKey.generate();

        Activity ethExport = root.submit(
                "export_wallet_account",
                "ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT",
                Map.of("address", eth.toLowerCase(Locale.ROOT), "targetPublicKey", target.compressed()),
                "exportWalletAccountResult");
        assertThat(ethExport.result().path("address").asString()).isEqualTo(eth);
        byte[] ethKey = Bundles.openExport(
                ethExport.result().path("exportBundle").asString(), signer(), server.organizationId(), target);
        assertThat(ethKey).hasSize(32);
        assertThat(HEX.formatHex(publicKeyOf(KeyCurve.SECP256K1, ethKey)))
                .isEqualTo(account(walletId, eth).path("publicKey").asString());
        assertThat(root.getWallet(walletId).path("exported").asBoolean()).isFalse();

        Activity solExport = root.submit(
                "export_wallet_account",
                "ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT",
                Map.of("address", sol, "targetPublicKey", target.uncompressed()),
                "exportWalletAccountResult");
        byte[] solKey = Bundles.openExport(
                solExport.result().path("exportBundle").asString(), signer(), server.organizationId(), target);
        assertThat(HEX.formatHex(publicKeyOf(KeyCurve.ED25519, solKey)))
                .isEqualTo(account(walletId, sol).path("publicKey").asString());

        // Accounts carry no exported flag on the wire; what it changes: an exported account may be deleted without
        // deleteWithoutExport, one never exported may not.
        String unexported =
                createWallet("export-accounts-other").path("addresses").get(0).asString();
        String walletOfUnexported = root.query("list_wallets", Map.of())
                .path("wallets")
                .valueStream()
                .filter(w -> w.path("walletName").asString().equals("export-accounts-other"))
                .findFirst()
                .orElseThrow()
                .path("walletId")
                .asString();
        String unexportedId =
                account(walletOfUnexported, unexported).path("walletAccountId").asString();
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> root.submit(
                                        "delete_wallet_accounts",
                                        "ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS",
                                        Map.of("walletAccountIds", List.of(unexportedId)),
                                        "deleteWalletAccountsResult"))
                        .serverMessage())
                .isEqualTo("wallet account has not been exported: " + unexportedId
                        + " (export it first, or set deleteWithoutExport to delete it for good)");
        String ethId = account(walletId, eth).path("walletAccountId").asString();
        assertThat(root.submit(
                                "delete_wallet_accounts",
                                "ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS",
                                Map.of("walletAccountIds", List.of(ethId)),
                                "deleteWalletAccountsResult")
                        .status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");
    }

    @Test
    void anExportedPrivateKeyIsTheKey() {
        String id = root.createPrivateKeys(
                        List.of(new PrivateKeyParams("export-me", "CURVE_P256", List.of(), List.of())))
                .result()
                .path("privateKeys")
                .get(0)
                .path("privateKeyId")
                .asString();
        TargetKey target = TargetKey.generate();
        Activity exported = root.submit(
                "export_private_key",
                "ACTIVITY_TYPE_EXPORT_PRIVATE_KEY",
                Map.of("privateKeyId", id, "targetPublicKey", target.compressed()),
                "exportPrivateKeyResult");
        assertThat(exported.result().path("privateKeyId").asString()).isEqualTo(id);
        byte[] key = Bundles.openExport(
                exported.result().path("exportBundle").asString(), signer(), server.organizationId(), target);
        JsonNode stored = root.getPrivateKey(id);
        assertThat(HEX.formatHex(EcCurve.P256.decompress(publicKeyOf(KeyCurve.P256, key))))
                .isEqualTo(stored.path("publicKey").asString());
        assertThat(stored.path("exported").asBoolean()).isTrue();
        assertThat(root.submit(
                                "delete_private_keys",
                                "ACTIVITY_TYPE_DELETE_PRIVATE_KEYS",
                                Map.of("privateKeyIds", List.of(id)),
                                "deletePrivateKeysResult")
                        .status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");
    }

    @Test
    void anotherTargetKeyCannotOpenTheBundle() {
        String walletId = createWallet("export-wrong-target").path("walletId").asString();
        String bundle = root.submit(
                        "export_wallet",
                        "ACTIVITY_TYPE_EXPORT_WALLET",
                        Map.of(
                                "walletId",
                                walletId,
                                "targetPublicKey",
                                TargetKey.generate().compressed()),
                        "exportWalletResult")
                .result()
                .path("exportBundle")
                .asString();
        TargetKey other = TargetKey.generate();
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> Bundles.openExport(bundle, signer(), server.organizationId(), other))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void malformedTargetsAndUnknownResourcesAreRefusedAndNothingIsMarked() {
        JsonNode wallet = createWallet("export-errors");
        String walletId = wallet.path("walletId").asString();
        String notAPoint = "02" + "ff".repeat(32);
        for (String bad : List.of("zz", "04abcd", notAPoint, "")) {
            apiError(
                    ErrorCode.BAD_REQUEST,
                    "parameters.targetPublicKey",
                    () -> root.submit(
                            "export_wallet",
                            "ACTIVITY_TYPE_EXPORT_WALLET",
                            Map.of("walletId", walletId, "targetPublicKey", bad),
                            "exportWalletResult"));
        }
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.targetPublicKey",
                () -> root.submit(
                        "export_wallet",
                        "ACTIVITY_TYPE_EXPORT_WALLET",
                        Map.of("walletId", walletId),
                        "exportWalletResult"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.language",
                () -> root.submit(
                        "export_wallet",
                        "ACTIVITY_TYPE_EXPORT_WALLET",
                        Map.of(
                                "walletId",
                                walletId,
                                "targetPublicKey",
                                TargetKey.generate().compressed(),
                                "language",
                                "MNEMONIC_LANGUAGE_FRENCH"),
                        "exportWalletResult"));
        String target = TargetKey.generate().compressed();
        assertThat(apiError(() -> root.submit(
                                "export_wallet",
                                "ACTIVITY_TYPE_EXPORT_WALLET",
                                Map.of("walletId", UUID.randomUUID().toString(), "targetPublicKey", target),
                                "exportWalletResult"))
                        .httpStatus())
                .isEqualTo(404);
        assertThat(apiError(() -> root.submit(
                                "export_wallet_account",
                                "ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT",
                                Map.of("address", "0x" + "00".repeat(20), "targetPublicKey", target),
                                "exportWalletAccountResult"))
                        .httpStatus())
                .isEqualTo(404);
        assertThat(apiError(() -> root.submit(
                                "export_private_key",
                                "ACTIVITY_TYPE_EXPORT_PRIVATE_KEY",
                                Map.of("privateKeyId", UUID.randomUUID().toString(), "targetPublicKey", target),
                                "exportPrivateKeyResult"))
                        .httpStatus())
                .isEqualTo(404);
        assertThat(root.getWallet(walletId).path("exported").asBoolean()).isFalse();
    }

    @Test
    void aUserOutsideTheRootQuorumCannotExport() {
        String walletId = createWallet("export-denied").path("walletId").asString();
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        root.createUsers(List.of(Requests.UserParams.withApiKeys(
                "exporter-" + UUID.randomUUID(), List.of(Requests.ApiKeyParams.of("k", key)))));
        KeyhavenClient other = root.withStamper(key);
        Activity denied = other.submit(
                "export_wallet",
                "ACTIVITY_TYPE_EXPORT_WALLET",
                Map.of(
                        "walletId",
                        walletId,
                        "targetPublicKey",
                        TargetKey.generate().compressed()),
                "exportWalletResult");
        assertThat(denied.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        assertThat(denied.result().path("exportBundle").isMissingNode()).isTrue();
        assertThat(root.getWallet(walletId).path("exported").asBoolean()).isFalse();
        // The export is audited like every activity.
        assertThat(root.listActivities(List.of(), List.of("ACTIVITY_TYPE_EXPORT_WALLET"), null, null, null))
                .anySatisfy(a -> assertThat(a.path("id").asString()).isEqualTo(denied.id()));
    }
}
