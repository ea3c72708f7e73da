// Policies and consensus through the official clients, in a sub-organization of its own (so that its policies touch
// no other test file): its root user writes policies with @turnkey/sdk-server; two non-root users, alice and bob,
// sign with @turnkey/http's TurnkeyClient (which does not poll, so every status is seen as returned) and vote with
// sdk-server's approveActivity / rejectActivity. Every signature is recovered with viem.
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { TurnkeyClient } from "@turnkey/http";
import { keccak256, recoverAddress, toHex } from "viem";
import {
  apiKeyParams,
  assertCompleted,
  baseUrl,
  newKeyPair,
  sdkClientFor,
  stamperFor,
  unique,
} from "../lib/keyhaven.mjs";

const now = () => String(Date.now());

describe("policies and consensus", () => {
  const admin = { name: unique("policy-admin"), key: newKeyPair() };
  const alice = { name: unique("alice"), key: newKeyPair() };
  const bob = { name: unique("bob"), key: newKeyPair() };
  let orgId;
  let adminSdk;
  let address;

  before(async () => {
    const created = await sdkClientFor().createSubOrganization({
      subOrganizationName: unique("policies"),
      rootUsers: [{
        userName: admin.name, apiKeys: [apiKeyParams("admin key", admin.key)], authenticators: [], oauthProviders: [],
      }],
      rootQuorumThreshold: 1,
      wallet: {
        walletName: "treasury",
        accounts: [{
          curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0",
          addressFormat: "ADDRESS_FORMAT_ETHEREUM",
        }],
      },
    });
    orgId = created.subOrganizationId;
    address = created.wallet.addresses[0];
    adminSdk = sdkClientFor(admin.key, orgId);
    const users = await adminSdk.createUsers({
      users: [alice, bob].map((u) => ({
        userName: u.name, apiKeys: [apiKeyParams(`${u.name} key`, u.key)], authenticators: [], oauthProviders: [],
        userTags: [],
      })),
    });
    [alice.id, bob.id] = users.userIds;
    alice.http = new TurnkeyClient({ baseUrl }, stamperFor(alice.key));
    bob.sdk = sdkClientFor(bob.key, orgId);
  });

  /** alice's sign_raw_payload of `message` (KECCAK256 over its UTF-8 bytes), as the server answered it. */
  async function aliceSigns(message) {
    const { activity } = await alice.http.signRawPayload({
      type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
      timestampMs: now(),
      organizationId: orgId,
      parameters: {
        signWith: address, payload: message, encoding: "PAYLOAD_ENCODING_TEXT_UTF8",
        hashFunction: "HASH_FUNCTION_KECCAK256",
      },
    });
    return activity;
  }

  async function assertSignedByTheAccount(message, { r, s, v }) {
    const signer = await recoverAddress({
      hash: keccak256(toHex(message)),
      signature: { r: `0x${r}`, s: `0x${s}`, yParity: Number.parseInt(v, 16) },
    });
    assert.equal(signer.toLowerCase(), address.toLowerCase());
  }

  async function createPolicy(policy) {
    const response = await adminSdk.createPolicy({ notes: "", ...policy });
    assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_CREATE_POLICY_V3", orgId, intentKey: "createPolicyIntentV3", resultKey: "createPolicyResult",
    });
    return response.policyId;
  }

  test("a non-root user is denied, an ALLOW policy lets them sign, a DENY overrides it", async () => {
    const denied = await aliceSigns("no policy yet");
    assert.equal(denied.status, "ACTIVITY_STATUS_FAILED");
    assert.match(denied.failure.message, /implicit deny/);

    const allowId = await createPolicy({
      policyName: "alice signs",
      effect: "EFFECT_ALLOW",
      consensus: `approvers.any(user, user.id == '${alice.id}')`,
      condition: `activity.action == 'SIGN' && wallet_account.address == '${address}'`,
    });
    const { policy } = await adminSdk.getPolicy({ policyId: allowId });
    assert.equal(policy.policyName, "alice signs");
    assert.equal(policy.effect, "EFFECT_ALLOW");
    assert.deepEqual((await adminSdk.getPolicies()).policies.map((p) => p.policyId), [allowId]);

    const allowed = await aliceSigns("with a policy");
    assert.equal(allowed.status, "ACTIVITY_STATUS_COMPLETED", JSON.stringify(allowed.failure));
    await assertSignedByTheAccount("with a policy", allowed.result.signRawPayloadResult);

    const denyId = await createPolicy({
      policyName: "no keccak",
      effect: "EFFECT_DENY",
      condition: "activity.params.hash_function == 'HASH_FUNCTION_KECCAK256'",
    });
    const overridden = await aliceSigns("the deny wins");
    assert.equal(overridden.status, "ACTIVITY_STATUS_FAILED");
    assert.equal(overridden.failure.message, `request denied by policy ${denyId}`);
    const { policyEvaluations } = await adminSdk.getPolicyEvaluations({ activityId: overridden.id });
    assert.deepEqual(policyEvaluations[0].policyEvaluations, [
      { policyId: allowId, outcome: "OUTCOME_ALLOW" },
      { policyId: denyId, outcome: "OUTCOME_DENY_EXPLICIT" },
      { outcome: "OUTCOME_DENY_EXPLICIT" },
    ]);

    const removed = await adminSdk.deletePolicy({ policyId: denyId });
    assert.equal(removed.policyId, denyId);
  });

  test("a two-approver policy needs consensus and completes on the second approval", async () => {
    const { policies } = await adminSdk.getPolicies();
    const policyId = policies.find((p) => p.policyName === "alice signs").policyId;
    const updated = await adminSdk.updatePolicy({
      policyId,
      policyConsensus: `approvers.any(user, user.id == '${alice.id}') && approvers.any(user, user.id == '${bob.id}')`,
    });
    assert.equal(updated.policyId, policyId);

    const pending = await aliceSigns("needs two");
    assert.equal(pending.status, "ACTIVITY_STATUS_CONSENSUS_NEEDED");
    assert.equal(pending.canApprove, false, "alice has voted");
    const seenByBob = await bob.sdk.getActivity({ activityId: pending.id });
    assert.equal(seenByBob.activity.canApprove, true);
    assert.equal(seenByBob.activity.canReject, true);

    const approved = await bob.sdk.approveActivity({ fingerprint: pending.fingerprint });
    assert.equal(approved.activity.id, pending.id, "the response is the target activity");
    assert.equal(approved.activity.status, "ACTIVITY_STATUS_COMPLETED");
    assert.deepEqual(approved.activity.votes.map((v) => v.userId), [alice.id, bob.id]);
    // @turnkey/core spreads the target's result into the response.
    await assertSignedByTheAccount("needs two", approved.signRawPayloadResult);
  });

  test("a rejection ends the activity REJECTED", async () => {
    const pending = await aliceSigns("to be rejected");
    assert.equal(pending.status, "ACTIVITY_STATUS_CONSENSUS_NEEDED");
    const rejected = await bob.sdk.rejectActivity({ fingerprint: pending.fingerprint });
    assert.equal(rejected.activity.id, pending.id);
    assert.equal(rejected.activity.status, "ACTIVITY_STATUS_REJECTED");
    assert.equal(rejected.activity.votes[1].selection, "VOTE_SELECTION_REJECTED");
    assert.deepEqual(rejected.activity.result, {});
    await assert.rejects(bob.sdk.approveActivity({ fingerprint: "00".repeat(32) }), /No activity found with fingerprint/);
  });
});
