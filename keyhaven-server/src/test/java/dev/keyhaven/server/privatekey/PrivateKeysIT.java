package dev.keyhaven.server.privatekey;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.Requests.PrivateKeyParams;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.OnBothStores;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** create_private_keys (V2), the private-key queries, delete_private_keys, with their error paths. */
class PrivateKeysIT extends OnBothStores {

    private String create(String name, String curve, List<String> formats) {
        return root.createPrivateKeys(List.of(new PrivateKeyParams(name, curve, List.of(), formats)))
                .result()
                .path("privateKeys")
                .get(0)
                .path("privateKeyId")
                .asString();
    }

    @Test
    void keysAreCreatedOnEveryCurveWithTheirAddresses() {
        Activity created = root.createPrivateKeys(List.of(
                new PrivateKeyParams(
                        "eth",
                        "CURVE_SECP256K1",
                        List.of(),
                        List.of(
                                "ADDRESS_FORMAT_ETHEREUM",
                                "ADDRESS_FORMAT_COMPRESSED",
                                "ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR")),
                new PrivateKeyParams("sol", "CURVE_ED25519", List.of(), List.of("ADDRESS_FORMAT_SOLANA")),
                new PrivateKeyParams("p256", "CURVE_P256", List.of(), List.of())));
        assertThat(created.type()).isEqualTo("ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2");
        JsonNode keys = created.result().path("privateKeys");
        assertThat(keys.size()).isEqualTo(3);
        JsonNode eth = keys.get(0);
        assertThat(eth.path("addresses").get(0).path("format").asString()).isEqualTo("ADDRESS_FORMAT_ETHEREUM");
        assertThat(eth.path("addresses").get(0).path("address").asString()).matches("0x[0-9a-fA-F]{40}");
        assertThat(eth.path("addresses").get(2).path("address").asString()).startsWith("bc1p");

        JsonNode stored = root.getPrivateKey(eth.path("privateKeyId").asString());
        assertThat(stored.path("privateKeyName").asString()).isEqualTo("eth");
        assertThat(stored.path("curve").asString()).isEqualTo("CURVE_SECP256K1");
        assertThat(stored.path("publicKey").asString()).matches("04[0-9a-f]{128}");
        String compressed = stored.path("addresses").get(1).path("address").asString();
        assertThat(compressed)
                .matches("0[23][0-9a-f]{64}")
                .startsWith(compressed.substring(0, 2))
                .contains(stored.path("publicKey").asString().substring(2, 66));
        assertThat(stored.path("exported").asBoolean(true)).isFalse();
        assertThat(stored.path("privateKeyTags").isArray()).isTrue();
        JsonNode sol = root.getPrivateKey(keys.get(1).path("privateKeyId").asString());
        assertThat(sol.path("publicKey").asString()).matches("[0-9a-f]{64}");
        JsonNode p256 = root.getPrivateKey(keys.get(2).path("privateKeyId").asString());
        assertThat(p256.path("publicKey").asString()).matches("04[0-9a-f]{128}");
        assertThat(p256.path("addresses").size()).isZero();

        JsonNode list = root.query("list_private_keys", Map.of()).path("privateKeys");
        assertThat(list)
                .anySatisfy(k -> assertThat(k.path("privateKeyName").asString()).isEqualTo("sol"));
        assertThat(root.getOrganization().path("privateKeys"))
                .anySatisfy(k -> assertThat(k.path("privateKeyName").asString()).isEqualTo("p256"));
    }

    @Test
    void invalidKeysFailAndNothingIsCreated() {
        KeyhavenApiException mismatch = apiError(
                ErrorCode.BAD_REQUEST,
                null,
                () -> root.createPrivateKeys(List.of(
                        new PrivateKeyParams("fine", "CURVE_SECP256K1", List.of(), List.of("ADDRESS_FORMAT_ETHEREUM")),
                        new PrivateKeyParams("wrong", "CURVE_P256", List.of(), List.of("ADDRESS_FORMAT_SOLANA")))));
        assertThat(mismatch.serverMessage())
                .isEqualTo(
                        "privateKeys[1]: address format ADDRESS_FORMAT_SOLANA does not " + "support curve CURVE_P256");
        assertThat(root.query("list_private_keys", Map.of()).path("privateKeys"))
                .noneSatisfy(
                        k -> assertThat(k.path("privateKeyName").asString()).isEqualTo("fine"));

        create("taken", "CURVE_SECP256K1", List.of());
        assertThat(apiError(ErrorCode.BAD_REQUEST, null, () -> create("taken", "CURVE_ED25519", List.of()))
                        .serverMessage())
                .isEqualTo("privateKeys[0]: a private key named 'taken' already exists");
        apiError(ErrorCode.BAD_REQUEST, "parameters.privateKeys", () -> root.createPrivateKeys(List.of()));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.privateKeys[0].curve",
                () -> root.createPrivateKeys(List.of(new PrivateKeyParams("x", "CURVE_NOPE", List.of(), List.of()))));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.privateKeys[0].addressFormats[1]",
                () -> root.createPrivateKeys(List.of(new PrivateKeyParams(
                        "x",
                        "CURVE_SECP256K1",
                        List.of(),
                        List.of("ADDRESS_FORMAT_ETHEREUM", "ADDRESS_FORMAT_NOPE")))));
        assertThat(apiError(() -> root.createPrivateKeys(List.of(new PrivateKeyParams(
                                "x", "CURVE_SECP256K1", List.of("00000000-0000-7000-8000-00000000000a"), List.of()))))
                        .httpStatus())
                .isEqualTo(404);
        assertThat(apiError(() -> root.getPrivateKey("00000000-0000-7000-8000-00000000000b"))
                        .httpStatus())
                .isEqualTo(404);
    }

    @Test
    void deletingAKeyThatWasNeverExportedNeedsDeleteWithoutExport() {
        String id = create("short-lived", "CURVE_SECP256K1", List.of("ADDRESS_FORMAT_ETHEREUM"));
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> root.submit(
                                        "delete_private_keys",
                                        "ACTIVITY_TYPE_DELETE_PRIVATE_KEYS",
                                        Map.of("privateKeyIds", List.of(id)),
                                        "deletePrivateKeysResult"))
                        .serverMessage())
                .isEqualTo("private key has not been exported: " + id
                        + " (export it first, or set deleteWithoutExport to delete it for good)");
        assertThat(root.getPrivateKey(id).path("privateKeyId").asString()).isEqualTo(id);
        Activity deleted = root.submit(
                "delete_private_keys",
                "ACTIVITY_TYPE_DELETE_PRIVATE_KEYS",
                Map.of("privateKeyIds", List.of(id), "deleteWithoutExport", true),
                "deletePrivateKeysResult");
        assertThat(deleted.result().path("privateKeyIds").get(0).asString()).isEqualTo(id);
        assertThat(apiError(() -> root.getPrivateKey(id)).httpStatus()).isEqualTo(404);
        assertThat(apiError(() -> root.signRawPayload(
                                id, "00".repeat(32), "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP"))
                        .httpStatus())
                .isEqualTo(404);
        assertThat(apiError(() -> root.submit(
                                "delete_private_keys",
                                "ACTIVITY_TYPE_DELETE_PRIVATE_KEYS",
                                Map.of("privateKeyIds", List.of(id), "deleteWithoutExport", true),
                                "deletePrivateKeysResult"))
                        .httpStatus())
                .isEqualTo(404);
    }
}
