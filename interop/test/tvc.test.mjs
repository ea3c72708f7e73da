// TVC manifest approvals through Turnkey's clients, unchanged: an operator registered with its own P-256 key through
// @turnkey/http (sdk-server 8.2.1 has no createTvcOperator), then @turnkey/sdk-server's apiClient: an app whose
// manifest set (that operator and two new ones) needs two of three approvals, a deployment whose manifest hash the
// operators sign (with @noble/curves), approvals counted against the threshold; a duplicate and a bad signature are
// refused.
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { describe, test } from "node:test";
import { p256 } from "@noble/curves/p256";
import { TurnkeyClient } from "@turnkey/http";
import {
  assertRequestError, baseUrl, organizationId, rootKey, sdkClientFor, stamperFor, unique,
} from "../lib/keyhaven.mjs";

const sdk = sdkClientFor();
const http = new TurnkeyClient({ baseUrl }, stamperFor(rootKey));
const sha256 = (bytes) => new Uint8Array(crypto.createHash("sha256").update(bytes).digest());
const hex = (bytes) => Buffer.from(bytes).toString("hex");

function newOperatorKey(name) {
  const privateKey = p256.utils.randomPrivateKey();
  return { name, privateKey, publicKey: hex(p256.getPublicKey(privateKey, false)) };
}

/** The operator's approval: ECDSA-P256 with SHA-256 over the 32 bytes of the manifest hash, raw r ‖ s. */
const approve = (operator, manifestHash) => ({
  operatorId: operator.operatorId,
  signature: p256.sign(sha256(Buffer.from(manifestHash, "hex")), operator.privateKey).toCompactHex(),
});

describe("TVC manifest approvals", () => {
  test("operators approve a deployment's manifest up to the threshold", async () => {
    const operators = ["one", "two", "three"].map((name) => newOperatorKey(unique(name)));
    const { activity } = await http.createTvcOperator({
      type: "ACTIVITY_TYPE_CREATE_TVC_OPERATOR", timestampMs: String(Date.now()), organizationId,
      parameters: { operatorName: operators[0].name, publicKey: operators[0].publicKey },
    });
    assert.equal(activity.status, "ACTIVITY_STATUS_COMPLETED");
    operators[0].operatorId = activity.result.createTvcOperatorResult.operatorId;
    const app = await sdk.createTvcApp({
      name: unique("app"),
      quorumPublicKey: "04" + "22".repeat(64),
      manifestSetParams: { name: "manifest set", existingOperatorIds: [operators[0].operatorId],
        newOperators: operators.slice(1).map(({ name, publicKey }) => ({ name, publicKey })), threshold: 2 },
      shareSetParams: { name: "share set", existingOperatorIds: [operators[0].operatorId], threshold: 1 },
    });
    assert.equal(app.manifestSetThreshold, 2);
    assert.equal(app.manifestSetOperatorIds[0], operators[0].operatorId);
    operators[1].operatorId = app.manifestSetOperatorIds[1];
    operators[2].operatorId = app.manifestSetOperatorIds[2];
    const { deploymentId, manifestId } = await sdk.createTvcDeployment({
      appId: app.appId, qosVersion: "0.5.0", pivotContainerImageUrl: "ghcr.io/example/app:1", pivotPath: "/app",
      pivotArgs: [], expectedPivotDigest: "ef".repeat(32), healthCheckType: "TVC_HEALTH_CHECK_TYPE_HTTP",
      healthCheckPort: 8081, publicIngressPort: 8080,
    });
    const { tvcDeployment } = await sdk.getTvcDeployment({ deploymentId });
    const manifest = Buffer.from(tvcDeployment.manifest.manifest, "base64");
    assert.equal(tvcDeployment.manifestHash, hex(sha256(manifest)));
    assert.equal(tvcDeployment.approvalThreshold, 2);

    const first = await sdk.createTvcManifestApprovals({ manifestId,
      approvals: [approve(operators[0], tvcDeployment.manifestHash)] });
    assert.equal(first.approvalIds.length, 1);
    await assertRequestError(sdk.createTvcManifestApprovals({ manifestId,
      approvals: [approve(operators[0], tvcDeployment.manifestHash)] }), { code: 3, message: /already approved/ });
    await assertRequestError(sdk.createTvcManifestApprovals({ manifestId,
      approvals: [{ operatorId: operators[1].operatorId, signature: "00".repeat(64) }] }),
    { code: 3, message: /does not verify/ });
    assert.equal((await sdk.getTvcDeployment({ deploymentId })).tvcDeployment.approved, false);

    await sdk.createTvcManifestApprovals({ manifestId, approvals: [approve(operators[2], tvcDeployment.manifestHash)] });
    const approved = (await sdk.getTvcDeployment({ deploymentId })).tvcDeployment;
    assert.equal(approved.approvalCount, 2);
    assert.equal(approved.approved, true);
    assert.deepEqual(approved.manifestApprovals.map((a) => a.operator.id),
      [operators[0].operatorId, operators[2].operatorId]);

    const { tvcDeployments } = await sdk.getTvcAppDeployments({ appId: app.appId });
    assert.deepEqual(tvcDeployments.map((d) => d.id), [deploymentId]);
    const { tvcApps } = await sdk.getTvcApps({});
    assert.ok(tvcApps.some((a) => a.id === app.appId));
  });
});
