// Older activity versions, sent by older releases of @turnkey/http installed unchanged under npm aliases
// (package.json: turnkey-http-1.1.0, turnkey-http-2.12.0, turnkey-http-3.15.0), stamped with today's
// @turnkey/api-key-stamper. Each test sends the version that release's types name for the call and asserts the
// result under the key that release reads. Codes the server emails land in the Maildir of its data directory.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { decryptCredentialBundle, generateP256KeyPair, getPublicKey } from "@turnkey/crypto";
import { TurnkeyClient as Http1 } from "turnkey-http-1.1.0";
import { TurnkeyClient as Http2 } from "turnkey-http-2.12.0";
import { TurnkeyClient as Http3 } from "turnkey-http-3.15.0";
import {
  assertCompleted,
  baseUrl,
  newKeyPair,
  organizationId,
  rootKey,
  sdkClientFor,
  stamperFor,
  unique,
} from "../lib/keyhaven.mjs";
import { emailedCode, messageTo } from "../lib/maildir.mjs";

const now = () => String(Date.now());
const http1 = new Http1({ baseUrl }, stamperFor(rootKey));
const http2 = new Http2({ baseUrl }, stamperFor(rootKey));
const http3 = new Http3({ baseUrl }, stamperFor(rootKey));

/** `apiApiKeyParams` of the older versions: no curveType, so P-256. */
const p256Key = (name, key) => ({ apiKeyName: name, publicKey: key.publicKey });

/** A Turnkey error from an old client: its message names the field the server blamed. */
async function assertRefused(promise, field) {
  await assert.rejects(promise, (error) => {
    assert.equal(error.name, "TurnkeyRequestError", error.stack);
    assert.match(error.message, new RegExp(field.replace(/[.[\]]/g, "\\$&")));
    return true;
  });
}

describe("@turnkey/http 1.1.0", () => {
  test("createUsers V2: a user with a key without a curve, who then stamps with it", async () => {
    const key = newKeyPair();
    const name = unique("http1-user");
    const { activity } = await http1.createUsers({
      type: "ACTIVITY_TYPE_CREATE_USERS_V2", timestampMs: now(), organizationId,
      parameters: { users: [{ userName: name, userEmail: `${name}@example.com`, apiKeys: [p256Key("k", key)],
        authenticators: [], userTags: [] }] },
    });
    const { userIds } = assertCompleted(activity, {
      type: "ACTIVITY_TYPE_CREATE_USERS_V2", intentKey: "createUsersIntentV2", resultKey: "createUsersResult",
    });
    assert.equal(userIds.length, 1);
    const whoami = await new Http1({ baseUrl }, stamperFor(key)).getWhoami({ organizationId });
    assert.equal(whoami.userId, userIds[0]);

    const more = newKeyPair();
    const added = await http1.createApiKeys({
      type: "ACTIVITY_TYPE_CREATE_API_KEYS", timestampMs: now(), organizationId,
      parameters: { userId: userIds[0], apiKeys: [p256Key("more", more)] },
    });
    const { apiKeyIds } = assertCompleted(added.activity, {
      type: "ACTIVITY_TYPE_CREATE_API_KEYS", intentKey: "createApiKeysIntent", resultKey: "createApiKeysResult",
    });
    assert.equal(apiKeyIds.length, 1);
    assert.equal((await new Http1({ baseUrl }, stamperFor(more)).getWhoami({ organizationId })).userId, userIds[0]);
  });

  test("signRawPayload V1 signs with privateKeyId", async () => {
    const created = await http1.createPrivateKeys({
      type: "ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2", timestampMs: now(), organizationId,
      parameters: { privateKeys: [{ privateKeyName: unique("http1-key"), curve: "CURVE_SECP256K1",
        privateKeyTags: [], addressFormats: ["ADDRESS_FORMAT_ETHEREUM"] }] },
    });
    const { privateKeys } = assertCompleted(created.activity, {
      type: "ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2", intentKey: "createPrivateKeysIntentV2",
      resultKey: "createPrivateKeysResultV2",
    });
    const signed = await http1.signRawPayload({
      type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD", timestampMs: now(), organizationId,
      parameters: { privateKeyId: privateKeys[0].privateKeyId, payload: "0x" + "ab".repeat(32),
        encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" },
    });
    const signature = assertCompleted(signed.activity, {
      type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD", intentKey: "signRawPayloadIntent", resultKey: "signRawPayloadResult",
    });
    assert.match(signature.r, /^[0-9a-f]{64}$/i);
    assert.match(signature.s, /^[0-9a-f]{64}$/i);
    assert.match(signature.v, /^0[01]$/);
  });

  test("createSubOrganization V2 answers createSubOrganizationResult", async () => {
    const { activity } = await http1.createSubOrganization({
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V2", timestampMs: now(), organizationId,
      parameters: { subOrganizationName: unique("http1-sub"), rootQuorumThreshold: 1,
        rootUsers: [{ userName: "root", apiKeys: [p256Key("k", newKeyPair())], authenticators: [] }] },
    });
    const result = assertCompleted(activity, {
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V2", intentKey: "createSubOrganizationIntentV2",
      resultKey: "createSubOrganizationResult",
    });
    assert.equal(typeof result.subOrganizationId, "string");
    assert.equal(result.rootUserIds.length, 1);
  });
});

describe("@turnkey/http 2.12.0", () => {
  test("createSubOrganization V5 with a wallet answers createSubOrganizationResultV5", async () => {
    const { activity } = await http2.createSubOrganization({
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V5", timestampMs: now(), organizationId,
      parameters: { subOrganizationName: unique("http2-sub"), rootQuorumThreshold: 1,
        rootUsers: [{ userName: "root", apiKeys: [p256Key("k", newKeyPair())], authenticators: [],
          oauthProviders: [] }],
        wallet: { walletName: "w", accounts: [{ curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32",
          path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" }] } },
    });
    const result = assertCompleted(activity, {
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V5", intentKey: "createSubOrganizationIntentV5",
      resultKey: "createSubOrganizationResultV5",
    });
    assert.equal(typeof result.wallet.walletId, "string");
    assert.match(result.wallet.addresses[0], /^0x[0-9a-fA-F]{40}$/);
  });

  test("createReadWriteSession V1 names the user by email; the bundle's key stamps as that user", async () => {
    const name = unique("http2-rw");
    const sdk = sdkClientFor();
    const { userIds } = await sdk.createUsers({ users: [{ userName: name, userEmail: `${name}@example.com`,
      apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] });
    const target = generateP256KeyPair();
    const { activity } = await http2.createReadWriteSession({
      type: "ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION", timestampMs: now(), organizationId,
      parameters: { targetPublicKey: target.publicKeyUncompressed, email: `${name}@example.com` },
    });
    const result = assertCompleted(activity, {
      type: "ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION", intentKey: "createReadWriteSessionIntent",
      resultKey: "createReadWriteSessionResult",
    });
    assert.equal(result.userId, userIds[0]);
    assert.equal(result.username, name);
    const privateKey = decryptCredentialBundle(result.credentialBundle, target.privateKey);
    const session = new Http2({ baseUrl }, stamperFor({
      publicKey: Buffer.from(getPublicKey(privateKey, true)).toString("hex"), privateKey }));
    assert.equal((await session.getWhoami({ organizationId })).userId, userIds[0]);

    await assertRefused(http2.createReadWriteSession({
      type: "ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION", timestampMs: now(), organizationId,
      parameters: { targetPublicKey: target.publicKeyUncompressed, userId: userIds[0] },
    }), "parameters.email");
  });

  test("initUserEmailRecovery V1 without an appName mails the recovery", async () => {
    const name = unique("http2-recovery");
    const email = `${name}@example.com`;
    const { userIds } = await sdkClientFor().createUsers({ users: [{ userName: name, userEmail: email,
      apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] });
    const { activity } = await http2.initUserEmailRecovery({
      type: "ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY", timestampMs: now(), organizationId,
      parameters: { email, targetPublicKey: generateP256KeyPair().publicKeyUncompressed },
    });
    const result = assertCompleted(activity, {
      type: "ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY", intentKey: "initUserEmailRecoveryIntent",
      resultKey: "initUserEmailRecoveryResult",
    });
    assert.equal(result.userId, userIds[0]);
    assert.match(messageTo(email), /Subject: Keyhaven: recover your account/);
  });

  test("updatePolicy V1 answers updatePolicyResult, and has no time window", async () => {
    const { policyId } = await sdkClientFor().createPolicy({ policyName: unique("http2-policy"),
      effect: "EFFECT_ALLOW", condition: "false", consensus: "true", notes: "" });
    const { activity } = await http2.updatePolicy({
      type: "ACTIVITY_TYPE_UPDATE_POLICY", timestampMs: now(), organizationId,
      parameters: { policyId, policyName: "renamed by 2.12.0", policyEffect: "EFFECT_DENY" },
    });
    const result = assertCompleted(activity, {
      type: "ACTIVITY_TYPE_UPDATE_POLICY", intentKey: "updatePolicyIntent", resultKey: "updatePolicyResult",
    });
    assert.equal(result.policyId, policyId);
    const { policy } = await http2.getPolicy({ organizationId, policyId });
    assert.equal(policy.policyName, "renamed by 2.12.0");
    assert.equal(policy.effect, "EFFECT_DENY");
    await sdkClientFor().deletePolicy({ policyId });
  });
});

describe("@turnkey/http 3.15.0", () => {
  test("initOtp V1, verifyOtp V1 with the code in plain text, otpLogin V1 with the unbound token", async () => {
    const name = unique("http3-otp");
    const email = `${name}@example.com`;
    const { userIds } = await sdkClientFor().createUsers({ users: [{ userName: name, userEmail: email,
      apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] });
    const init = await http3.initOtp({
      type: "ACTIVITY_TYPE_INIT_OTP", timestampMs: now(), organizationId,
      parameters: { otpType: "OTP_TYPE_EMAIL", contact: email, emailCustomization: { appName: "Interop Old" } },
    });
    const { otpId } = assertCompleted(init.activity, {
      type: "ACTIVITY_TYPE_INIT_OTP", intentKey: "initOtpIntent", resultKey: "initOtpResult",
    });
    assert.deepEqual(Object.keys(init.activity.result.initOtpResult), ["otpId"]);
    const code = emailedCode(email);

    const verified = await http3.verifyOtp({
      type: "ACTIVITY_TYPE_VERIFY_OTP", timestampMs: now(), organizationId,
      parameters: { otpId, otpCode: code },
    });
    const { verificationToken } = assertCompleted(verified.activity, {
      type: "ACTIVITY_TYPE_VERIFY_OTP", intentKey: "verifyOtpIntent", resultKey: "verifyOtpResult",
    });

    const session = newKeyPair();
    const login = await http3.otpLogin({
      type: "ACTIVITY_TYPE_OTP_LOGIN", timestampMs: now(), organizationId,
      parameters: { verificationToken, publicKey: session.publicKey },
    });
    const { session: jwt } = assertCompleted(login.activity, {
      type: "ACTIVITY_TYPE_OTP_LOGIN", intentKey: "otpLoginIntentV2", resultKey: "otpLoginResult",
    });
    assert.equal(JSON.parse(Buffer.from(jwt.split(".")[1], "base64url")).user_id, userIds[0]);
    const asUser = new Http3({ baseUrl }, stamperFor(session));
    assert.equal((await asUser.getWhoami({ organizationId })).userId, userIds[0]);

    // The code was spent.
    await assertRefused(http3.verifyOtp({
      type: "ACTIVITY_TYPE_VERIFY_OTP", timestampMs: now(), organizationId,
      parameters: { otpId, otpCode: code },
    }), "already used");
  });

  test("createUsers V3 answers createUsersResult", async () => {
    const name = unique("http3-user");
    const { activity } = await http3.createUsers({
      type: "ACTIVITY_TYPE_CREATE_USERS_V3", timestampMs: now(), organizationId,
      parameters: { users: [{ userName: name, userEmail: `${name}@example.com`,
        apiKeys: [{ ...p256Key("k", newKeyPair()), curveType: "API_KEY_CURVE_P256" }], authenticators: [],
        oauthProviders: [], userTags: [] }] },
    });
    const { userIds } = assertCompleted(activity, {
      type: "ACTIVITY_TYPE_CREATE_USERS_V3", intentKey: "createUsersIntentV3", resultKey: "createUsersResult",
    });
    assert.equal(userIds.length, 1);
  });
});
