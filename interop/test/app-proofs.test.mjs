// App proofs checked with Turnkey's own verifier: @turnkey/crypto's verifyAppProofSignature accepts every proof that
// create_wallet and sign_raw_payload return when the request sets generateAppProofs (sent through @turnkey/http's
// TurnkeyClient, unchanged), rejects one changed in a single byte, and list_app_proofs (getAppProofs) returns the
// activity's proofs. The boot proof names the same ephemeral key. (verify(), the Nitro attestation check, cannot pass
// against a self-hosted server: Keyhaven's boot proof is signed by its own long-term key instead.)
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { TurnkeyClient } from "@turnkey/http";
import { verifyAppProofSignature } from "@turnkey/crypto";
import { assertCompleted, baseUrl, organizationId, rootKey, stamperFor, unique } from "../lib/keyhaven.mjs";

const http = new TurnkeyClient({ baseUrl }, stamperFor(rootKey));
const ethereum = (index) => ({ curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32",
  path: `m/44'/60'/0'/0/${index}`, addressFormat: "ADDRESS_FORMAT_ETHEREUM" });

async function createWalletWithProofs() {
  const { activity } = await http.createWallet({
    type: "ACTIVITY_TYPE_CREATE_WALLET",
    timestampMs: String(Date.now()),
    organizationId,
    generateAppProofs: true,
    parameters: { walletName: unique("proven"), accounts: [ethereum(0), ethereum(1)] },
  });
  assertCompleted(activity, { type: "ACTIVITY_TYPE_CREATE_WALLET", resultKey: "createWalletResult",
    intentKey: "createWalletIntent" });
  return activity;
}

describe("app proofs", () => {
  test("create_wallet proofs pass verifyAppProofSignature and name every address", async () => {
    const activity = await createWalletWithProofs();
    const { walletId, addresses } = activity.result.createWalletResult;
    assert.equal(activity.appProofs.length, 3);
    for (const proof of activity.appProofs) {
      assert.equal(proof.scheme, "SIGNATURE_SCHEME_EPHEMERAL_KEY_P256");
      assert.doesNotThrow(() => verifyAppProofSignature(proof));
    }
    const [outcome, ...derivations] = activity.appProofs.map((p) => JSON.parse(p.proofPayload));
    assert.equal(outcome.type, "APP_PROOF_TYPE_POLICY_OUTCOME");
    assert.equal(outcome.policyOutcomeProof.activityId, activity.id);
    assert.equal(outcome.policyOutcomeProof.outcome, "OUTCOME_ALLOW");
    derivations.forEach((d, i) => {
      assert.equal(d.type, "APP_PROOF_TYPE_ADDRESS_DERIVATION");
      assert.deepEqual(d.addressDerivationProof, { organizationId, walletId, derivationPath: `m/44'/60'/0'/0/${i}`,
        address: addresses[i] });
    });

    const { appProofs } = await http.getAppProofs({ organizationId, activityId: activity.id });
    assert.deepEqual(appProofs, activity.appProofs);
  });

  test("sign_raw_payload proves its policy outcome", async () => {
    const address = (await createWalletWithProofs()).result.createWalletResult.addresses[0];
    const { activity } = await http.signRawPayload({
      type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
      timestampMs: String(Date.now()),
      organizationId,
      generateAppProofs: true,
      parameters: { signWith: address, payload: "proven", encoding: "PAYLOAD_ENCODING_TEXT_UTF8",
        hashFunction: "HASH_FUNCTION_KECCAK256" },
    });
    assert.equal(activity.status, "ACTIVITY_STATUS_COMPLETED");
    assert.equal(activity.appProofs.length, 1);
    verifyAppProofSignature(activity.appProofs[0]);
    const payload = JSON.parse(activity.appProofs[0].proofPayload);
    assert.equal(payload.policyOutcomeProof.activityType, "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2");
    assert.deepEqual((await http.getAppProofs({ organizationId, activityId: activity.id })).appProofs,
      activity.appProofs);

    const { bootProof } = await http.getBootProof({ organizationId, ephemeralKey: activity.appProofs[0].publicKey });
    assert.equal(bootProof.ephemeralPublicKeyHex, activity.appProofs[0].publicKey);
    const latest = await http.getLatestBootProof({ organizationId, appName: "keyhaven" });
    assert.deepEqual(latest.bootProof, bootProof);
  });

  test("a proof changed in one byte fails verifyAppProofSignature", async () => {
    const proof = (await createWalletWithProofs()).appProofs[1];
    const at = proof.proofPayload.indexOf('"address":"') + 12;
    const flipped = proof.proofPayload[at] === "a" ? "b" : "a";
    const tampered = { ...proof, proofPayload: proof.proofPayload.slice(0, at) + flipped
      + proof.proofPayload.slice(at + 1) };
    assert.throws(() => verifyAppProofSignature(tampered), /Signature verification failed/);
    const badSignature = { ...proof, signature: (proof.signature[0] === "0" ? "1" : "0") + proof.signature.slice(1) };
    assert.throws(() => verifyAppProofSignature(badSignature));
  });
});
