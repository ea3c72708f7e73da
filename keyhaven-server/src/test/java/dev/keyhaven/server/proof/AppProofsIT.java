package dev.keyhaven.server.proof;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.AppProofs;
import dev.keyhaven.client.AppProofs.AppProof;
import dev.keyhaven.client.AppProofs.BootProof;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.ApiKeyParams;
import dev.keyhaven.client.Requests.PrivateKeyParams;
import dev.keyhaven.client.Requests.RootUserParams;
import dev.keyhaven.client.Requests.UserParams;
import dev.keyhaven.client.Requests.WalletAccountParams;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * App proofs and boot proofs over HTTP on both stores: the proofs of create_wallet and sign_raw_payload verify with
 * the client's verifier, through the whole chain to the pinned long-term key; list_app_proofs returns what the
 * activity carried; one changed byte, another key or another start's boot proof fails.
 */
class AppProofsIT extends OnBothStores {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Activity createWalletWithProofs(KeyhavenClient client, String name) {
        byte[] body = client.submitBodyWithAppProofs(
                "ACTIVITY_TYPE_CREATE_WALLET",
                Map.of(
                        "walletName",
                        name,
                        "accounts",
                        List.of(WalletAccountParams.ethereum(0), WalletAccountParams.ethereum(1))));
        return client.submitRaw("create_wallet", body, "createWalletResult");
    }

    private Activity signWithProofs(String signWith) {
        byte[] body = root.submitBodyWithAppProofs(
                "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
                Map.of(
                        "signWith",
                        signWith,
                        "payload",
                        "hello",
                        "encoding",
                        "PAYLOAD_ENCODING_TEXT_UTF8",
                        "hashFunction",
                        "HASH_FUNCTION_KECCAK256"));
        return root.submitRaw("sign_raw_payload", body, "signRawPayloadResult");
    }

    private static JsonNode payload(AppProof proof) {
        return JSON.readTree(proof.proofPayload());
    }

    @Test
    void createWalletProvesThePolicyOutcomeAndEveryAddress() {
        Activity created = createWalletWithProofs(root, "proven wallet");
        assertThat(created.isCompleted()).isTrue();
        String walletId = created.result().path("walletId").asString();
        JsonNode addresses = created.result().path("addresses");
        List<AppProof> proofs = AppProofs.of(created);

        assertThat(proofs).hasSize(3);
        proofs.forEach(AppProofs::verifyAppProofSignature);
        assertThat(proofs).allSatisfy(p -> {
            assertThat(p.scheme()).isEqualTo("SIGNATURE_SCHEME_EPHEMERAL_KEY_P256");
            assertThat(p.publicKey()).hasSize(260);
            assertThat(p.signature()).hasSize(128);
        });
        JsonNode outcome = payload(proofs.getFirst());
        assertThat(outcome.path("type").asString()).isEqualTo("APP_PROOF_TYPE_POLICY_OUTCOME");
        assertThat(outcome.path("timestampMs").asString()).matches("[0-9]+");
        assertThat(outcome.path("policyOutcomeProof").path("activityId").asString())
                .isEqualTo(created.id());
        assertThat(outcome.path("policyOutcomeProof").path("fingerprint").asString())
                .isEqualTo(created.fingerprint());
        assertThat(outcome.path("policyOutcomeProof").path("outcome").asString())
                .isEqualTo("OUTCOME_ALLOW");
        for (int i = 0; i < 2; i++) {
            JsonNode derivation = payload(proofs.get(i + 1));
            assertThat(derivation.path("type").asString()).isEqualTo("APP_PROOF_TYPE_ADDRESS_DERIVATION");
            JsonNode body = derivation.path("addressDerivationProof");
            assertThat(body.path("organizationId").asString()).isEqualTo(server.organizationId());
            assertThat(body.path("walletId").asString()).isEqualTo(walletId);
            assertThat(body.path("derivationPath").asString()).isEqualTo("m/44'/60'/0'/0/" + i);
            assertThat(body.path("address").asString())
                    .isEqualTo(addresses.get(i).asString());
        }
        assertThat(root.listAppProofs(created.id())).isEqualTo(proofs);
        assertThat(root.getActivity(created.id()).path("appProofs"))
                .isEqualTo(created.raw().path("appProofs"));
    }

    @Test
    void signRawPayloadProvesItsPolicyOutcome() {
        String address = createWalletWithProofs(root, "signing wallet")
                .result()
                .path("addresses")
                .get(0)
                .asString();
        Activity signed = signWithProofs(address);

        assertThat(signed.isCompleted()).isTrue();
        List<AppProof> proofs = AppProofs.of(signed);
        assertThat(proofs).hasSize(1);
        AppProofs.verify(
                proofs.getFirst(), root.getBootProof(proofs.getFirst().publicKey()), server.identityPublicKey());
        JsonNode outcome = payload(proofs.getFirst()).path("policyOutcomeProof");
        assertThat(outcome.path("activityType").asString()).isEqualTo("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2");
        assertThat(outcome.path("status").asString()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(root.listAppProofs(signed.id())).isEqualTo(proofs);
    }

    @Test
    void privateKeysAndSubOrganizationWalletsProveTheirAddresses() {
        byte[] keysBody = root.submitBodyWithAppProofs(
                "ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2",
                Map.of(
                        "privateKeys",
                        List.of(new PrivateKeyParams(
                                "proven key",
                                "CURVE_SECP256K1",
                                List.of(),
                                List.of("ADDRESS_FORMAT_ETHEREUM", "ADDRESS_FORMAT_COMPRESSED")))));
        Activity keys = root.submitRaw("create_private_keys", keysBody, "createPrivateKeysResultV2");
        JsonNode created = keys.result().path("privateKeys").get(0);
        List<AppProof> keyProofs = AppProofs.of(keys);
        assertThat(keyProofs).hasSize(3);
        for (int i = 0; i < 2; i++) {
            AppProofs.verifyAppProofSignature(keyProofs.get(i + 1));
            JsonNode body = payload(keyProofs.get(i + 1)).path("addressDerivationProof");
            assertThat(body.path("privateKeyId").asString())
                    .isEqualTo(created.path("privateKeyId").asString());
            assertThat(body.path("address").asString())
                    .isEqualTo(created.path("addresses").get(i).path("address").asString());
            assertThat(body.has("walletId")).isFalse();
        }

        byte[] subBody = root.submitBodyWithAppProofs(
                "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8",
                Map.of(
                        "subOrganizationName",
                        "proven sub",
                        "rootQuorumThreshold",
                        1,
                        "rootUsers",
                        List.of(RootUserParams.withApiKeys(
                                "sub root",
                                List.of(ApiKeyParams.of("k", TestServer.newKey(ApiKeyStamper.Curve.P256))))),
                        "wallet",
                        Map.of("walletName", "sub wallet", "accounts", List.of(WalletAccountParams.ethereum(0)))));
        Activity sub = root.submitRaw("create_sub_organization", subBody, "createSubOrganizationResultV8");
        List<AppProof> subProofs = AppProofs.of(sub);
        assertThat(subProofs).hasSize(2);
        JsonNode derivation = payload(subProofs.get(1)).path("addressDerivationProof");
        assertThat(derivation.path("organizationId").asString())
                .isEqualTo(sub.result().path("subOrganizationId").asString());
        assertThat(derivation.path("walletId").asString())
                .isEqualTo(sub.result().path("wallet").path("walletId").asString());
        assertThat(derivation.path("address").asString())
                .isEqualTo(sub.result().path("wallet").path("addresses").get(0).asString());
        AppProofs.verify(subProofs.get(1), root.getBootProof(subProofs.get(1).publicKey()), server.identityPublicKey());
    }

    @Test
    void anActivityWithoutTheFlagHasNoProofs() {
        String address = createWalletWithProofs(root, "plain wallet")
                .result()
                .path("addresses")
                .get(0)
                .asString();
        Activity signed = root.signRawPayload(address, "hi", "PAYLOAD_ENCODING_TEXT_UTF8", "HASH_FUNCTION_KECCAK256");
        assertThat(signed.raw().has("appProofs")).isFalse();
        assertThat(root.listAppProofs(signed.id())).isEmpty();
    }

    @Test
    void aDeniedActivityProvesItsDenial() {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        root.createUsers(List.of(UserParams.withApiKeys("nobody", List.of(ApiKeyParams.of("key", key)))));
        Activity denied = createWalletWithProofs(root.withStamper(key), "not allowed");

        assertThat(denied.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        List<AppProof> proofs = AppProofs.of(denied);
        assertThat(proofs).hasSize(1);
        AppProofs.verifyAppProofSignature(proofs.getFirst());
        assertThat(payload(proofs.getFirst())
                        .path("policyOutcomeProof")
                        .path("outcome")
                        .asString())
                .isEqualTo("OUTCOME_DENY_IMPLICIT");
    }

    @Test
    void anActivityAwaitingConsensusProvesEachDecision() {
        List<ApiKeyStamper> keys =
                List.of(TestServer.newKey(ApiKeyStamper.Curve.P256), TestServer.newKey(ApiKeyStamper.Curve.P256));
        root.createUsers(List.of(
                UserParams.withApiKeys("proposer", List.of(ApiKeyParams.of("k", keys.get(0)))),
                UserParams.withApiKeys("approver", List.of(ApiKeyParams.of("k", keys.get(1))))));
        String policyId = root.createPolicy(
                        "wallets need two",
                        "EFFECT_ALLOW",
                        "activity.resource == 'WALLET'",
                        "approvers.count() >= 2",
                        "",
                        null)
                .result()
                .path("policyId")
                .asString();
        try {
            Activity waiting = createWalletWithProofs(root.withStamper(keys.get(0)), "four eyes");
            assertThat(waiting.status()).isEqualTo("ACTIVITY_STATUS_CONSENSUS_NEEDED");
            assertThat(AppProofs.of(waiting))
                    .singleElement()
                    .satisfies(p -> assertThat(payload(p)
                                    .path("policyOutcomeProof")
                                    .path("outcome")
                                    .asString())
                            .isEqualTo("OUTCOME_REQUIRES_CONSENSUS"));

            Activity approved =
                    root.withStamper(keys.get(1)).approveActivity(waiting.fingerprint(), "createWalletResult");
            assertThat(approved.isCompleted()).isTrue();
            List<AppProof> proofs = AppProofs.of(approved);
            assertThat(proofs).hasSize(4);
            proofs.forEach(p -> AppProofs.verify(p, root.getBootProof(p.publicKey()), server.identityPublicKey()));
            JsonNode allow = payload(proofs.get(1)).path("policyOutcomeProof");
            assertThat(allow.path("outcome").asString()).isEqualTo("OUTCOME_ALLOW");
            assertThat(allow.path("policyOutcomes").get(0).path("policyId").asString())
                    .isEqualTo(policyId);
            assertThat(payload(proofs.get(2))
                            .path("addressDerivationProof")
                            .path("address")
                            .asString())
                    .isEqualTo(approved.result().path("addresses").get(0).asString());
            assertThat(root.listAppProofs(approved.id())).isEqualTo(proofs);
        } finally {
            root.deletePolicy(policyId);
        }
    }

    @Test
    void theBootProofChainVerifiesToThePinnedKeyOnly() {
        AppProof proof =
                AppProofs.of(createWalletWithProofs(root, "chained wallet")).getFirst();
        BootProof boot = root.getBootProof(proof.publicKey());
        BootProof latest = root.getLatestBootProof();

        assertThat(latest).isEqualTo(boot);
        AppProofs.verify(proof, boot, server.identityPublicKey());
        String anotherKey = TestServer.newKey(ApiKeyStamper.Curve.P256).publicKey();
        assertThatThrownBy(() -> AppProofs.verify(proof, boot, anotherKey))
                .isInstanceOf(AppProofs.VerificationException.class)
                .hasMessageContaining("pinned long-term key");
        JsonNode statement = JSON.readTree(boot.bootStatement());
        assertThat(statement.path("ephemeralPublicKey").asString()).isEqualTo(proof.publicKey());
        assertThat(statement.path("identityPublicKey").asString()).isEqualTo(server.identityPublicKey());
        assertThat(statement.path("startedAtMs").asString()).matches("[0-9]+");
        assertThat(statement.path("buildVersion").asString()).isNotEmpty();
    }

    @Test
    void anotherStartHasAnotherEphemeralKeyUnderTheSameIdentity() {
        AppProof proof =
                AppProofs.of(createWalletWithProofs(root, "first start")).getFirst();
        try (TestServer peer = server.peer()) {
            KeyhavenClient peerRoot = peer.rootClient();
            BootProof peerBoot = peerRoot.getLatestBootProof();
            assertThat(peer.identityPublicKey()).isEqualTo(server.identityPublicKey());
            assertThat(peerBoot.ephemeralPublicKeyHex()).isNotEqualTo(proof.publicKey());
            AppProofs.verifyBootProof(peerBoot, server.identityPublicKey());
            assertThatThrownBy(() -> AppProofs.verify(proof, peerBoot, server.identityPublicKey()))
                    .isInstanceOf(AppProofs.VerificationException.class)
                    .hasMessageContaining("another ephemeral key");
            // Both starts' boot proofs stay readable through either server.
            assertThat(peerRoot.getBootProof(proof.publicKey())).isEqualTo(root.getBootProof(proof.publicKey()));
        }
    }

    @Test
    void aProofChangedInOneByteFails() {
        AppProof proof =
                AppProofs.of(createWalletWithProofs(root, "tampered wallet")).get(1);
        String payload = proof.proofPayload();
        int at = payload.indexOf("\"address\":\"") + 12;
        String changedPayload =
                payload.substring(0, at) + (payload.charAt(at) == 'a' ? 'b' : 'a') + payload.substring(at + 1);
        AppProof forged = new AppProof(proof.scheme(), proof.publicKey(), changedPayload, proof.signature());
        assertThatThrownBy(() -> AppProofs.verifyAppProofSignature(forged))
                .isInstanceOf(AppProofs.VerificationException.class)
                .hasMessageContaining("does not verify");

        String signature = proof.signature();
        String changedSignature = (signature.charAt(0) == '0' ? "1" : "0") + signature.substring(1);
        AppProof badSignature = new AppProof(proof.scheme(), proof.publicKey(), payload, changedSignature);
        assertThatThrownBy(() -> AppProofs.verifyAppProofSignature(badSignature))
                .isInstanceOf(AppProofs.VerificationException.class);

        AppProof otherScheme = new AppProof("SIGNATURE_SCHEME_TK_API_P256", proof.publicKey(), payload, signature);
        assertThatThrownBy(() -> AppProofs.verifyAppProofSignature(otherScheme))
                .isInstanceOf(AppProofs.VerificationException.class)
                .hasMessageContaining("scheme");
    }

    @Test
    void queriesRefuseUnknownActivitiesAndKeys() {
        assertThat(apiError(() -> root.listAppProofs("00000000-0000-7000-8000-000000000000"))
                        .httpStatus())
                .isEqualTo(404);
        apiError(ErrorCode.BAD_REQUEST, "activityId", () -> root.query("list_app_proofs", Map.of()));
        assertThat(apiError(() -> root.getBootProof("04" + "ab".repeat(129))).httpStatus())
                .isEqualTo(404);
        apiError(ErrorCode.BAD_REQUEST, "ephemeralKey", () -> root.query("get_boot_proof", Map.of()));
        apiError(ErrorCode.BAD_REQUEST, "appName", () -> root.query("get_latest_boot_proof", Map.of()));
    }
}
