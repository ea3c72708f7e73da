package dev.keyhaven.server.tvc;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.crypto.Digests;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.OnBothStores;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * TVC manifests and their approvals over HTTP on both stores: operators with their own P-256 keys, an app whose
 * manifest set of three needs two approvals, deployments with their manifests; approvals accepted up to the threshold,
 * and refused (naming the approval, recording none) for a duplicate, an operator outside the set or unknown, and a bad
 * signature.
 */
class TvcIT extends OnBothStores {
    private static final HexFormat HEX = HexFormat.of();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, KeyPair> operatorKeys = new LinkedHashMap<>();
    private String alice;
    private String bob;
    private String carol;
    private String outsider;
    private String appId;

    @BeforeParameterizedClassInvocation
    void createOperatorsAndApp() {
        alice = createOperator("alice");
        bob = createOperator("bob");
        carol = createOperator("carol");
        outsider = createOperator("outsider");
        Activity app = root.submit(
                "create_tvc_app",
                "ACTIVITY_TYPE_CREATE_TVC_APP",
                Map.of(
                        "name",
                        "signer",
                        "quorumPublicKey",
                        "04" + "11".repeat(64),
                        "manifestSetParams",
                        Map.of(
                                "name",
                                "manifest set",
                                "existingOperatorIds",
                                List.of(alice, bob, carol),
                                "threshold",
                                2),
                        "shareSetParams",
                        Map.of(
                                "name",
                                "share set",
                                "newOperators",
                                List.of(Map.of("name", "share holder", "publicKey", newKey("share holder"))),
                                "threshold",
                                1)),
                "createTvcAppResult");
        assertThat(app.isCompleted()).isTrue();
        assertThat(app.result().path("manifestSetOperatorIds")).hasSize(3);
        assertThat(app.result().path("manifestSetThreshold").asInt()).isEqualTo(2);
        assertThat(app.result().path("shareSetOperatorIds")).hasSize(1);
        appId = app.result().path("appId").asString();
    }

    private String createOperator(String name) {
        Activity created = root.submit(
                "create_tvc_operator",
                "ACTIVITY_TYPE_CREATE_TVC_OPERATOR",
                Map.of("operatorName", name, "publicKey", newKey(name)),
                "createTvcOperatorResult");
        assertThat(created.isCompleted()).isTrue();
        return created.result().path("operatorId").asString();
    }

    /** A fresh P-256 key for {@code name}; its uncompressed public key, hex. */
    private String newKey(String name) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair pair = generator.generateKeyPair();
            operatorKeys.put(name, pair);
            ECPublicKey key = (ECPublicKey) pair.getPublic();
            return "04" + fixed(key.getW().getAffineX()) + fixed(key.getW().getAffineY());
        } catch (GeneralSecurityException e) {
            throw new AssertionError(e);
        }
    }

    private static String fixed(BigInteger value) {
        String hex = value.toString(16);
        return "0".repeat(64 - hex.length()) + hex;
    }

    /** DER ECDSA-P256-SHA256 by {@code name}'s key over {@code message}, hex. */
    private String sign(String name, byte[] message) {
        try {
            Signature signer = Signature.getInstance("SHA256withECDSA");
            signer.initSign(operatorKeys.get(name).getPrivate());
            signer.update(message);
            return HEX.formatHex(signer.sign());
        } catch (GeneralSecurityException e) {
            throw new AssertionError(e);
        }
    }

    private String approvalBy(String name, JsonNode deployment) {
        return sign(name, HEX.parseHex(deployment.path("manifestHash").asString()));
    }

    private record Deployment(String deploymentId, String manifestId) {}

    private Deployment deploy() {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("appId", appId);
        params.put("qosVersion", "0.5.0");
        params.put("pivotContainerImageUrl", "ghcr.io/example/signer@sha256:" + "ab".repeat(32));
        params.put("pivotPath", "/signer");
        params.put("pivotArgs", List.of("--port", "3000"));
        params.put("expectedPivotDigest", "cd".repeat(32));
        params.put("healthCheckType", "TVC_HEALTH_CHECK_TYPE_HTTP");
        params.put("healthCheckPort", 3001);
        params.put("publicIngressPort", 3000);
        Activity created = root.submit(
                "create_tvc_deployment", "ACTIVITY_TYPE_CREATE_TVC_DEPLOYMENT", params, "createTvcDeploymentResult");
        assertThat(created.isCompleted()).isTrue();
        return new Deployment(
                created.result().path("deploymentId").asString(),
                created.result().path("manifestId").asString());
    }

    private JsonNode deployment(Deployment d) {
        return root.query("get_tvc_deployment", Map.of("deploymentId", d.deploymentId()))
                .path("tvcDeployment");
    }

    private Activity approve(Deployment d, List<Map<String, String>> approvals) {
        return root.submit(
                "create_tvc_manifest_approvals",
                "ACTIVITY_TYPE_CREATE_TVC_MANIFEST_APPROVALS",
                Map.of("manifestId", d.manifestId(), "approvals", approvals),
                "createTvcManifestApprovalsResult");
    }

    private static Map<String, String> approval(String operatorId, String signature) {
        return Map.of("operatorId", operatorId, "signature", signature);
    }

    @Test
    void approvalsCountTowardsTheThresholdUntilItIsReached() {
        Deployment d = deploy();
        JsonNode before = deployment(d);
        assertThat(before.path("approvalCount").asInt()).isZero();
        assertThat(before.path("approvalThreshold").asInt()).isEqualTo(2);
        assertThat(before.path("approved").asBoolean()).isFalse();

        Activity first = approve(d, List.of(approval(alice, approvalBy("alice", before))));
        assertThat(first.isCompleted()).isTrue();
        assertThat(first.result().path("approvalIds")).hasSize(1);
        JsonNode once = deployment(d);
        assertThat(once.path("approvalCount").asInt()).isEqualTo(1);
        assertThat(once.path("approved").asBoolean()).isFalse();

        // Raw r ‖ s is accepted as well as DER.
        byte[] der = HEX.parseHex(approvalBy("bob", before));
        Activity second = approve(d, List.of(approval(bob, HEX.formatHex(rawOf(der)))));
        assertThat(second.isCompleted()).isTrue();
        JsonNode twice = deployment(d);
        assertThat(twice.path("approvalCount").asInt()).isEqualTo(2);
        assertThat(twice.path("approved").asBoolean()).isTrue();
        JsonNode approvals = twice.path("manifestApprovals");
        assertThat(approvals).hasSize(2);
        assertThat(approvals.get(0).path("id").asString())
                .isEqualTo(first.result().path("approvalIds").get(0).asString());
        assertThat(approvals.get(0).path("operator").path("id").asString()).isEqualTo(alice);
        assertThat(approvals.get(0).path("manifestId").asString()).isEqualTo(d.manifestId());
        assertThat(approvals.get(1).path("operator").path("name").asString()).isEqualTo("bob");

        // A third approval beyond the threshold is still recorded.
        approve(d, List.of(approval(carol, approvalBy("carol", before))));
        assertThat(deployment(d).path("approvalCount").asInt()).isEqualTo(3);
    }

    @Test
    void severalApprovalsInOneActivity() {
        Deployment d = deploy();
        JsonNode before = deployment(d);
        Activity both = approve(
                d, List.of(approval(alice, approvalBy("alice", before)), approval(carol, approvalBy("carol", before))));
        assertThat(both.result().path("approvalIds")).hasSize(2);
        assertThat(deployment(d).path("approved").asBoolean()).isTrue();
    }

    @Test
    void aDuplicateApprovalIsRefusedNamingIt() {
        Deployment d = deploy();
        JsonNode before = deployment(d);
        approve(d, List.of(approval(alice, approvalBy("alice", before))));

        KeyhavenApiException again = apiError(
                ErrorCode.BAD_REQUEST, null, () -> approve(d, List.of(approval(alice, approvalBy("alice", before)))));
        assertThat(again.serverMessage())
                .isEqualTo("approvals[0] (operator " + alice + "): the operator has already " + "approved manifest "
                        + d.manifestId());
        KeyhavenApiException twice = apiError(
                ErrorCode.BAD_REQUEST,
                null,
                () -> approve(
                        d,
                        List.of(approval(bob, approvalBy("bob", before)), approval(bob, approvalBy("bob", before)))));
        assertThat(twice.serverMessage())
                .isEqualTo("approvals[1] (operator " + bob + "): the operator has already " + "approved manifest "
                        + d.manifestId());
        assertThat(deployment(d).path("approvalCount").asInt()).isEqualTo(1);
    }

    @Test
    void anOperatorOutsideTheManifestSetOrUnknownIsRefused() {
        Deployment d = deploy();
        JsonNode before = deployment(d);
        KeyhavenApiException outside = apiError(
                ErrorCode.BAD_REQUEST,
                null,
                () -> approve(
                        d,
                        List.of(
                                approval(alice, approvalBy("alice", before)),
                                approval(outsider, approvalBy("outsider", before)))));
        assertThat(outside.serverMessage())
                .isEqualTo("approvals[1] (operator " + outsider + "): the operator is not "
                        + "in the manifest set of deployment " + d.deploymentId());
        String unknown = "00000000-0000-7000-8000-000000000000";
        KeyhavenApiException missing =
                apiError(ErrorCode.BAD_REQUEST, null, () -> approve(d, List.of(approval(unknown, "00"))));
        assertThat(missing.serverMessage())
                .isEqualTo("approvals[0] (operator " + unknown + "): no TVC operator " + "found with this id");
        // Nothing of a refused activity is recorded, not even its valid approvals.
        assertThat(deployment(d).path("approvalCount").asInt()).isZero();
    }

    @Test
    void aBadSignatureIsRefused() {
        Deployment d = deploy();
        JsonNode before = deployment(d);
        String otherData = sign("alice", "not the manifest hash".getBytes(StandardCharsets.UTF_8));
        String wrongSigner = approvalBy("bob", before);
        for (String signature : List.of(otherData, wrongSigner, "zz", "00".repeat(64))) {
            KeyhavenApiException bad =
                    apiError(ErrorCode.BAD_REQUEST, null, () -> approve(d, List.of(approval(alice, signature))));
            assertThat(bad.serverMessage())
                    .isEqualTo("approvals[0] (operator " + alice + "): the signature does not "
                            + "verify over the manifest hash with the operator's public key");
        }
        assertThat(deployment(d).path("approvalCount").asInt()).isZero();
    }

    @Test
    void approvalsNeedAKnownManifestAndTakeNoAppProofs() {
        Deployment d = deploy();
        JsonNode before = deployment(d);
        Deployment unknown = new Deployment(d.deploymentId(), "00000000-0000-7000-8000-000000000000");
        assertThat(apiError(() -> approve(unknown, List.of(approval(alice, approvalBy("alice", before)))))
                        .httpStatus())
                .isEqualTo(404);
        apiError(ErrorCode.BAD_REQUEST, "parameters.approvals", () -> approve(d, List.of()));

        Map<String, Object> params = Map.of(
                "manifestId", d.manifestId(), "approvals", List.of(approval(alice, approvalBy("alice", before))));
        apiError(
                ErrorCode.BAD_REQUEST,
                "generateAppProofs",
                () -> root.submitRaw(
                        "create_tvc_manifest_approvals",
                        root.submitBodyWithAppProofs("ACTIVITY_TYPE_CREATE_TVC_MANIFEST_APPROVALS", params),
                        "createTvcManifestApprovalsResult"));
        // generateAppProofs: false is what @turnkey/core sends with every activity; it is accepted.
        Map<String, Object> body = new LinkedHashMap<>(JSON.readValue(
                root.submitBody("ACTIVITY_TYPE_CREATE_TVC_MANIFEST_APPROVALS", params),
                new TypeReference<Map<String, Object>>() {}));
        body.put("generateAppProofs", false);
        assertThat(root.submitRaw(
                                "create_tvc_manifest_approvals",
                                JSON.writeValueAsBytes(body),
                                "createTvcManifestApprovalsResult")
                        .isCompleted())
                .isTrue();
    }

    @Test
    void theManifestIsStoredWithItsHash() {
        Deployment d = deploy();
        JsonNode deployment = deployment(d);
        byte[] manifest = Base64.getDecoder()
                .decode(deployment.path("manifest").path("manifest").asString());
        assertThat(deployment.path("manifest").path("id").asString()).isEqualTo(d.manifestId());
        assertThat(deployment.path("manifestHash").asString()).isEqualTo(HEX.formatHex(Digests.sha256(manifest)));
        JsonNode content = JSON.readTree(manifest);
        assertThat(content.path("manifestSet").path("threshold").asInt()).isEqualTo(2);
        assertThat(content.path("manifestSet").path("members")).hasSize(3);
        assertThat(content.path("pivot").path("hash").asString()).isEqualTo("cd".repeat(32));
        assertThat(deployment.path("appId").asString()).isEqualTo(appId);
        assertThat(deployment.path("manifestSet").path("operators")).hasSize(3);
        assertThat(deployment.path("pivotContainer").path("args")).hasSize(2);
        assertThat(deployment.path("qosVersion").asString()).isEqualTo("0.5.0");
    }

    @Test
    void appsAndDeploymentsAreListed() {
        Deployment d = deploy();
        JsonNode app = root.query("get_tvc_app", Map.of("tvcAppId", appId)).path("tvcApp");
        assertThat(app.path("name").asString()).isEqualTo("signer");
        assertThat(app.path("manifestSet").path("threshold").asInt()).isEqualTo(2);
        assertThat(app.path("shareSet").path("operators").get(0).path("name").asString())
                .isEqualTo("share holder");
        assertThat(root.query("list_tvc_apps", Map.of()).path("tvcApps"))
                .anySatisfy(a -> assertThat(a.path("id").asString()).isEqualTo(appId));
        assertThat(root.query("list_tvc_app_deployments", Map.of("appId", appId))
                        .path("tvcDeployments"))
                .anySatisfy(x -> assertThat(x.path("id").asString()).isEqualTo(d.deploymentId()));

        String unknown = "00000000-0000-7000-8000-000000000000";
        assertThat(apiError(() -> root.query("get_tvc_app", Map.of("tvcAppId", unknown)))
                        .httpStatus())
                .isEqualTo(404);
        assertThat(apiError(() -> root.query("get_tvc_deployment", Map.of("deploymentId", unknown)))
                        .httpStatus())
                .isEqualTo(404);
        assertThat(apiError(() -> root.query("list_tvc_app_deployments", Map.of("appId", unknown)))
                        .httpStatus())
                .isEqualTo(404);
    }

    @Test
    void creationsRefuseInvalidInput() {
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.publicKey",
                () -> root.submit(
                        "create_tvc_operator",
                        "ACTIVITY_TYPE_CREATE_TVC_OPERATOR",
                        Map.of("operatorName", "bad key", "publicKey", "04abcd"),
                        "createTvcOperatorResult"));
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> root.submit(
                                        "create_tvc_operator",
                                        "ACTIVITY_TYPE_CREATE_TVC_OPERATOR",
                                        Map.of("operatorName", "alice", "publicKey", newKey("alice again")),
                                        "createTvcOperatorResult"))
                        .serverMessage())
                .endsWith(": a TVC operator named 'alice' already exists");
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.publicKey",
                () -> root.submit(
                        "create_tvc_operator",
                        "ACTIVITY_TYPE_CREATE_TVC_OPERATOR",
                        Map.of("operatorName", "wallet op", "walletName", "w", "path", "m/0"),
                        "createTvcOperatorResult"));

        Map<String, Object> set = Map.of("name", "s", "existingOperatorIds", List.of(alice), "threshold", 2);
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.manifestSetParams.threshold",
                () -> root.submit(
                        "create_tvc_app",
                        "ACTIVITY_TYPE_CREATE_TVC_APP",
                        Map.of("name", "x", "quorumPublicKey", "04", "manifestSetParams", set, "shareSetId", "y"),
                        "createTvcAppResult"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.manifestSetId",
                () -> root.submit(
                        "create_tvc_app",
                        "ACTIVITY_TYPE_CREATE_TVC_APP",
                        Map.of(
                                "name",
                                "x",
                                "quorumPublicKey",
                                "04",
                                "manifestSetId",
                                "a",
                                "manifestSetParams",
                                set,
                                "shareSetId",
                                "y"),
                        "createTvcAppResult"));
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> root.submit(
                                        "create_tvc_app",
                                        "ACTIVITY_TYPE_CREATE_TVC_APP",
                                        Map.of(
                                                "name",
                                                "signer",
                                                "quorumPublicKey",
                                                "04",
                                                "manifestSetId",
                                                "a",
                                                "shareSetId",
                                                "y"),
                                        "createTvcAppResult"))
                        .serverMessage())
                .isEqualTo("a TVC app named 'signer' already exists");

        Map<String, Object> params = new LinkedHashMap<>(Map.of(
                "appId",
                "00000000-0000-7000-8000-000000000000",
                "qosVersion",
                "0.5.0",
                "pivotContainerImageUrl",
                "img",
                "pivotPath",
                "/p",
                "pivotArgs",
                List.of(),
                "expectedPivotDigest",
                "ab",
                "healthCheckType",
                "TVC_HEALTH_CHECK_TYPE_HTTP",
                "healthCheckPort",
                1,
                "publicIngressPort",
                2));
        assertThat(apiError(() -> root.submit(
                                "create_tvc_deployment",
                                "ACTIVITY_TYPE_CREATE_TVC_DEPLOYMENT",
                                params,
                                "createTvcDeploymentResult"))
                        .httpStatus())
                .isEqualTo(404);
        params.put("appId", appId);
        params.put("debugMode", true);
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> root.submit(
                                        "create_tvc_deployment",
                                        "ACTIVITY_TYPE_CREATE_TVC_DEPLOYMENT",
                                        params,
                                        "createTvcDeploymentResult"))
                        .serverMessage())
                .isEqualTo("TVC app " + appId + " does not allow debug-mode deployments");
        params.put("healthCheckType", "TVC_HEALTH_CHECK_TYPE_TCP");
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.healthCheckType",
                () -> root.submit(
                        "create_tvc_deployment",
                        "ACTIVITY_TYPE_CREATE_TVC_DEPLOYMENT",
                        params,
                        "createTvcDeploymentResult"));
    }

    /** DER {@code SEQUENCE {r, s}} to the raw 64 bytes. */
    private static byte[] rawOf(byte[] der) {
        int rLength = der[3];
        BigInteger r = new BigInteger(1, java.util.Arrays.copyOfRange(der, 4, 4 + rLength));
        int sLength = der[5 + rLength];
        BigInteger s = new BigInteger(1, java.util.Arrays.copyOfRange(der, 6 + rLength, 6 + rLength + sLength));
        return HEX.parseHex(fixed(r) + fixed(s));
    }
}
