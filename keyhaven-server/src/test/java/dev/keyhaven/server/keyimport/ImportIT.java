package dev.keyhaven.server.keyimport;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.WalletAccountParams;
import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.Bundles;
import dev.keyhaven.server.testing.Bundles.TargetKey;
import dev.keyhaven.server.testing.MutableClock;
import dev.keyhaven.server.testing.OnBothStores;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** init_import_wallet / import_wallet and init_import_private_key / import_private_key, with their errors. */
class ImportIT extends OnBothStores {
    private static final HexFormat HEX = HexFormat.of();
    /** BIP-39's first English vector and what BIP-32 / SLIP-0010 derive from it. */
    private static final String ABANDON =
            "abandon abandon abandon abandon abandon abandon abandon abandon abandon " + "abandon abandon about";

    private static final String ABANDON_ETH = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94";
    private static final String ABANDON_SOL = "HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk";
    private static final List<WalletAccountParams> ACCOUNTS = List.of(
            WalletAccountParams.of("CURVE_SECP256K1", "m/44'/60'/0'/0/0", "ADDRESS_FORMAT_ETHEREUM"),
            WalletAccountParams.of("CURVE_ED25519", "m/44'/501'/0'/0'", "ADDRESS_FORMAT_SOLANA"));

    private final MutableClock clock = MutableClock.ticking();
    private KeyhavenClient client;

    @Override
    protected Clock clock() {
        return clock;
    }

    @BeforeEach
    void clientOnTheServersClock() {
        client = root.withClock(clock);
    }

    private String signer() {
        return Bundles.discoveredSigner(server.baseUrl());
    }

    private String initImport(String operation, String type, String resultKey) {
        return client.submit(operation, type, Map.of("userId", server.rootUserId()), resultKey)
                .result()
                .path("importBundle")
                .asString();
    }

    private String initWallet() {
        return initImport("init_import_wallet", "ACTIVITY_TYPE_INIT_IMPORT_WALLET", "initImportWalletResult");
    }

    private String initKey() {
        return initImport(
                "init_import_private_key", "ACTIVITY_TYPE_INIT_IMPORT_PRIVATE_KEY", "initImportPrivateKeyResult");
    }

    private String encrypt(String importBundle, byte[] plaintext) {
        return Bundles.encryptToImportBundle(
                importBundle, signer(), server.organizationId(), server.rootUserId(), plaintext);
    }

    private Activity importWallet(String name, String encryptedBundle) {
        return client.submit(
                "import_wallet",
                "ACTIVITY_TYPE_IMPORT_WALLET",
                Map.of(
                        "userId",
                        server.rootUserId(),
                        "walletName",
                        name,
                        "encryptedBundle",
                        encryptedBundle,
                        "accounts",
                        ACCOUNTS),
                "importWalletResult");
    }

    private Activity importKey(String name, String curve, String encryptedBundle, List<String> formats) {
        return client.submit(
                "import_private_key",
                "ACTIVITY_TYPE_IMPORT_PRIVATE_KEY",
                Map.of(
                        "userId",
                        server.rootUserId(),
                        "privateKeyName",
                        name,
                        "encryptedBundle",
                        encryptedBundle,
                        "curve",
                        curve,
                        "addressFormats",
                        formats),
                "importPrivateKeyResult");
    }

    @Test
    void anImportedMnemonicDerivesTheBip39VectorsAddressesAndExportsBackUnchanged() {
        String bundle = initWallet();
        JsonNode target = Bundles.verifiedData(bundle, signer());
        assertThat(target.path("targetPublic").asString()).matches("04[0-9a-f]{128}");
        assertThat(target.path("userId").asString()).isEqualTo(server.rootUserId());

        Activity imported = importWallet("imported-abandon", encrypt(bundle, ABANDON.getBytes(StandardCharsets.UTF_8)));
        assertThat(imported.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(imported.result()
                        .path("addresses")
                        .valueStream()
                        .map(JsonNode::asString)
                        .toList())
                .containsExactly(ABANDON_ETH, ABANDON_SOL);
        String walletId = imported.result().path("walletId").asString();
        JsonNode wallet = client.getWallet(walletId);
        assertThat(wallet.path("imported").asBoolean()).isTrue();
        assertThat(wallet.path("exported").asBoolean()).isFalse();

        // More accounts derive from the imported seed too; export gives the phrase back.
        assertThat(client.createWalletAccounts(walletId, List.of(WalletAccountParams.ethereum(1)))
                        .result()
                        .path("addresses")
                        .get(0)
                        .asString())
                .isEqualTo("0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0");
        TargetKey exportTarget = TargetKey.generate();
        String exported = client.submit(
                        "export_wallet",
                        "ACTIVITY_TYPE_EXPORT_WALLET",
                        Map.of("walletId", walletId, "targetPublicKey", exportTarget.compressed()),
                        "exportWalletResult")
                .result()
                .path("exportBundle")
                .asString();
        assertThat(new String(
                        Bundles.openExport(exported, signer(), server.organizationId(), exportTarget),
                        StandardCharsets.UTF_8))
                .isEqualTo(ABANDON);
    }

    @Test
    void anImportedPrivateKeyHasItsAddressesAndSigns() {
        byte[] key = HEX.parseHex("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318");
        Activity imported = importKey(
                "imported-eth", "CURVE_SECP256K1", encrypt(initKey(), key), List.of("ADDRESS_FORMAT_ETHEREUM"));
        assertThat(imported.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        JsonNode address = imported.result().path("addresses").get(0);
        assertThat(address.path("format").asString()).isEqualTo("ADDRESS_FORMAT_ETHEREUM");
        // The well-known address of this key (web3.js documentation's example account).
        assertThat(address.path("address").asString()).isEqualTo("0x2c7536E3605D9C16a7a3D7b1898e529396a65c23");
        String id = imported.result().path("privateKeyId").asString();
        JsonNode stored = client.getPrivateKey(id);
        assertThat(stored.path("imported").asBoolean()).isTrue();
        try (SecretBytes secret = SecretBytes.copyOf(key)) {
            assertThat(stored.path("publicKey").asString())
                    .isEqualTo(HEX.formatHex(EcCurve.SECP256K1.decompress(KeyCurve.SECP256K1.publicKey(secret))));
        }
        assertThat(client.signRawPayload(id, "00".repeat(32), "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP")
                        .status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");
    }

    @Test
    void aTargetServesOneImportAndANewInitReplacesTheOldOne() {
        String first = initWallet();
        String encrypted = encrypt(first, ABANDON.getBytes(StandardCharsets.UTF_8));
        // A new init replaces the first target: what was encrypted to it no longer opens.
        String second = initWallet();
        KeyhavenApiException stale = apiError(
                ErrorCode.BAD_REQUEST, "parameters.encryptedBundle", () -> importWallet("replaced", encrypted));
        assertThat(stale.serverMessage())
                .isEqualTo("bad request body: parameters.encryptedBundle does not open with "
                        + "this user's current import target (encrypt to the latest init_import bundle)");
        // The failed import rolled back: the second target is still there, and serves exactly one import.
        String again = encrypt(second, ABANDON.getBytes(StandardCharsets.UTF_8));
        assertThat(importWallet("single-use-1", again).status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        String noTarget = "user " + server.rootUserId() + " has no import target: call init_import_wallet first "
                + "(each target serves one import)";
        assertThat(apiError(ErrorCode.BAD_REQUEST, null, () -> importWallet("single-use-2", again))
                        .serverMessage())
                .isEqualTo(noTarget);
        // Wallet and private-key targets are separate.
        initKey();
        assertThat(apiError(ErrorCode.BAD_REQUEST, null, () -> importWallet("wrong-kind", again))
                        .serverMessage())
                .isEqualTo(noTarget);
    }

    @Test
    void anExpiredTargetIsRefused() {
        String bundle = initKey();
        String encrypted = encrypt(bundle, HEX.parseHex("11".repeat(32)));
        clock.advance(ImportTargets.VALIDITY.plus(Duration.ofSeconds(1)));
        KeyhavenApiException expired =
                apiError(ErrorCode.BAD_REQUEST, null, () -> importKey("too-late", "CURVE_P256", encrypted, List.of()));
        assertThat(expired.serverMessage())
                .startsWith("the import target of user " + server.rootUserId() + " expired at ")
                .endsWith(": call init_import_private_key again");
    }

    @Test
    void badBundlesAndParametersAreRefusedAndNothingIsCreated() {
        String bundle = initKey();
        for (String bad : List.of("not json", "{}", "{\"encappedPublic\":\"04\",\"ciphertext\":\"00\"}")) {
            apiError(
                    ErrorCode.BAD_REQUEST,
                    "parameters.encryptedBundle",
                    () -> importKey("bad", "CURVE_SECP256K1", bad, List.of()));
        }
        // Not a secp256k1 scalar (zero), and a key of the wrong length.
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.encryptedBundle",
                                () -> importKey("zero", "CURVE_SECP256K1", encrypt(bundle, new byte[32]), List.of()))
                        .serverMessage())
                .isEqualTo("bad request body: parameters.encryptedBundle does not hold a 32-byte private key of "
                        + "CURVE_SECP256K1");
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.encryptedBundle",
                                () -> importKey("short", "CURVE_ED25519", encrypt(bundle, new byte[16]), List.of()))
                        .serverMessage())
                .isEqualTo("bad request body: parameters.encryptedBundle does not hold a 32-byte private key of "
                        + "CURVE_ED25519");
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> importKey(
                                        "mismatch",
                                        "CURVE_P256",
                                        encrypt(bundle, HEX.parseHex("22".repeat(32))),
                                        List.of("ADDRESS_FORMAT_SOLANA")))
                        .serverMessage())
                .endsWith("address format ADDRESS_FORMAT_SOLANA does not support curve CURVE_P256");

        String walletBundle = initWallet();
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.encryptedBundle",
                                () -> importWallet(
                                        "not-a-mnemonic",
                                        encrypt(
                                                walletBundle,
                                                "abandon abandon abandon".getBytes(StandardCharsets.UTF_8))))
                        .serverMessage())
                .startsWith("bad request body: parameters.encryptedBundle does not hold a valid " + "mnemonic: ");
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.encryptedBundle",
                                () -> importWallet(
                                        "bad-checksum",
                                        encrypt(
                                                walletBundle,
                                                ABANDON.replace("about", "abandon")
                                                        .getBytes(StandardCharsets.UTF_8))))
                        .serverMessage())
                .startsWith("bad request body: parameters.encryptedBundle does not hold a valid " + "mnemonic: ")
                .doesNotContain("abandon abandon");
        assertThat(client.listWallets()
                        .path("wallets")
                        .valueStream()
                        .map(w -> w.path("walletName").asString())
                        .toList())
                .doesNotContain("not-a-mnemonic", "bad-checksum");

        KeyhavenApiException unknownUser = apiError(() -> client.submit(
                "init_import_wallet",
                "ACTIVITY_TYPE_INIT_IMPORT_WALLET",
                Map.of("userId", UUID.randomUUID().toString()),
                "initImportWalletResult"));
        assertThat(unknownUser.httpStatus()).isEqualTo(404);
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.encryptedBundle",
                () -> client.submit(
                        "import_wallet",
                        "ACTIVITY_TYPE_IMPORT_WALLET",
                        Map.of("userId", server.rootUserId(), "walletName", "x", "accounts", ACCOUNTS),
                        "importWalletResult"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.curve",
                () -> client.submit(
                        "import_private_key",
                        "ACTIVITY_TYPE_IMPORT_PRIVATE_KEY",
                        Map.of(
                                "userId",
                                server.rootUserId(),
                                "privateKeyName",
                                "x",
                                "encryptedBundle",
                                "{}",
                                "curve",
                                "CURVE_NOPE",
                                "addressFormats",
                                List.of()),
                        "importPrivateKeyResult"));
    }
}
