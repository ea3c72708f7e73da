// More older activity versions, each through a published release that sends it, installed unchanged under an npm
// alias (package.json): @turnkey/sdk-server 0.2.0, 1.3.0 and 5.3.0, whose apiClient() writes the activity type
// itself, and @turnkey/http 1.2.0, 2.16.0 and 3.15.0, whose types name the version each call takes. Which release
// sends which version is in docs/compatibility.md. Every result is checked by using it: the ids it names exist
// afterwards (a new root user's key stamps whoami in the new sub-organization, the new wallet is read back), and
// every credential bundle is opened with @turnkey/crypto and its key stamps as the user it was issued to.
//
// sdk-server 0.x and 1.x answer only `{...result, activity: {id, status}}`, so the stored activity is read back
// with today's sdk-server to check its type, intent key and result key. The sign-ins are submitted by the parent
// organization's key with organizationId = the user's sub-organization, as the SDKs' server actions do.
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { describe, test } from "node:test";
import { p256 } from "@noble/curves/p256";
import { decryptCredentialBundle, generateP256KeyPair, getPublicKey } from "@turnkey/crypto";
import { Signature, Transaction, keccak256, recoverAddress, toUtf8Bytes } from "ethers";
import { TurnkeyClient as Http120 } from "turnkey-http-1.2.0";
import { TurnkeyClient as Http2160 } from "turnkey-http-2.16.0";
import { TurnkeyClient as Http3150 } from "turnkey-http-3.15.0";
import { Turnkey as SdkServer020 } from "turnkey-sdk-server-0.2.0";
import { Turnkey as SdkServer130 } from "turnkey-sdk-server-1.3.0";
import { Turnkey as SdkServer530 } from "turnkey-sdk-server-5.3.0";
import {
  apiKeyParams,
  assertCompleted,
  assertRequestError,
  authProxyConfigId,
  authProxyUrl,
  baseUrl,
  newKeyPair,
  oidcToken,
  organizationId,
  rootKey,
  sdkClientFor,
  sessionNonce,
  stamperFor,
  unique,
} from "../lib/keyhaven.mjs";
import { emailedCode, messageTo, newestMessageTo } from "../lib/maildir.mjs";

const now = () => String(Date.now());
const sha256 = (text) => crypto.createHash("sha256").update(text, "utf8").digest();
const sdk = sdkClientFor();
const serverClient = (Sdk) => new Sdk({ apiBaseUrl: baseUrl, apiPublicKey: rootKey.publicKey,
  apiPrivateKey: rootKey.privateKey, defaultOrganizationId: organizationId }).apiClient();
const sdk020 = serverClient(SdkServer020);
const sdk130 = serverClient(SdkServer130);
const sdk530 = serverClient(SdkServer530);
const http120 = new Http120({ baseUrl }, stamperFor(rootKey));
const http2160 = new Http2160({ baseUrl }, stamperFor(rootKey));
const http3150 = new Http3150({ baseUrl }, stamperFor(rootKey));

const ethereumAccount = { curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0",
  addressFormat: "ADDRESS_FORMAT_ETHEREUM" };

/** The stored activity `id` of `orgId`, checked as assertCompleted checks it; returns its result. */
async function storedResult(id, expected) {
  const { activity } = await sdk.getActivity({ organizationId: expected.orgId ?? organizationId, activityId: id });
  return assertCompleted(activity, expected);
}

/** Asserts that `key` stamps whoami in `orgId` as `userId`. */
async function assertStampsAs(key, orgId, userId) {
  assert.equal((await sdkClientFor(key, orgId).getWhoami({})).userId, userId);
}

/** The key pair a credential bundle carries, opened with the target's private key. */
function bundleKey(bundle, target) {
  const privateKey = decryptCredentialBundle(bundle, target.privateKey);
  assert.match(privateKey, /^[0-9a-f]{64}$/);
  return { publicKey: Buffer.from(getPublicKey(privateKey, true)).toString("hex"), privateKey };
}

/** A sub-organization (made with today's sdk-server) whose root user has `email`: its id and the user's id. */
async function subOrganizationUser(email) {
  const key = newKeyPair();
  const { subOrganizationId } = await sdk.createSubOrganization({ subOrganizationName: unique("older-sub"),
    rootQuorumThreshold: 1, rootUsers: [{ userName: unique("older"), userEmail: email,
      apiKeys: [apiKeyParams("k", key)], authenticators: [], oauthProviders: [] }] });
  const { userId } = await sdkClientFor(key, subOrganizationId).getWhoami({});
  return { subOrganizationId, userId };
}

/** The credential bundle in the magic link of the newest of the `messages` emails to `email`, and its subject. */
function mailedBundle(email, { messages = 1 } = {}) {
  const message = newestMessageTo(email, { messages });
  const link = message.match(/bundle=([1-9A-HJ-NP-Za-km-z]+)/);
  assert.ok(link, `a magic link with the bundle in:\n${message}`);
  return { bundle: link[1], subject: message.match(/^Subject: (.*)$/m)[1] };
}

describe("@turnkey/http 1.2.0", () => {
  test("createSubOrganization V3 answers createSubOrganizationResultV3; its root user's key works there",
    async () => {
      const key = newKeyPair();
      const { activity } = await http120.createSubOrganization({
        type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V3", timestampMs: now(), organizationId,
        parameters: { subOrganizationName: unique("http120-sub"), rootQuorumThreshold: 1,
          rootUsers: [{ userName: "root", apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey }],
            authenticators: [] }],
          privateKeys: [] },
      });
      const result = assertCompleted(activity, {
        type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V3", intentKey: "createSubOrganizationIntentV3",
        resultKey: "createSubOrganizationResultV3",
      });
      assert.deepEqual(result.privateKeys, []);
      const { organizationId: subOrganizationId, userId } = await sdkClientFor(key, result.subOrganizationId)
        .getWhoami({});
      assert.equal(subOrganizationId, result.subOrganizationId);
      assert.deepEqual(result.rootUserIds, [userId]);
    });

  test("createSubOrganization V3 with private keys creates them in the sub-organization; ethers verifies a signature",
    async () => {
      const key = newKeyPair();
      const { activity } = await http120.createSubOrganization({
        type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V3", timestampMs: now(), organizationId,
        parameters: { subOrganizationName: unique("http120-keys"), rootQuorumThreshold: 1,
          rootUsers: [{ userName: "root", apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey }],
            authenticators: [] }],
          privateKeys: [
            { privateKeyName: "eth", curve: "CURVE_SECP256K1", privateKeyTags: [],
              addressFormats: ["ADDRESS_FORMAT_ETHEREUM"] },
            { privateKeyName: "sol", curve: "CURVE_ED25519", privateKeyTags: [],
              addressFormats: ["ADDRESS_FORMAT_SOLANA"] },
          ] },
      });
      const result = assertCompleted(activity, {
        type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V3", intentKey: "createSubOrganizationIntentV3",
        resultKey: "createSubOrganizationResultV3",
      });
      assert.equal(result.privateKeys.length, 2);
      const [eth, sol] = result.privateKeys;
      assert.deepEqual(eth.addresses.map((a) => a.format), ["ADDRESS_FORMAT_ETHEREUM"]);
      assert.deepEqual(sol.addresses.map((a) => a.format), ["ADDRESS_FORMAT_SOLANA"]);

      // The keys are the sub-organization's: its root user lists them, the parent does not have them.
      const subOrg = sdkClientFor(key, result.subOrganizationId);
      const { privateKeys } = await subOrg.getPrivateKeys({});
      assert.deepEqual(privateKeys.map((k) => [k.privateKeyId, k.privateKeyName, k.curve]).sort(),
        [[eth.privateKeyId, "eth", "CURVE_SECP256K1"], [sol.privateKeyId, "sol", "CURVE_ED25519"]].sort());
      const { privateKeys: parentKeys } = await sdk.getPrivateKeys({});
      assert.ok(!parentKeys.some((k) => k.privateKeyId === eth.privateKeyId), "not a key of the parent");

      // Signed in the sub-organization by its root user; ethers recovers the address the result named.
      const digest = keccak256(toUtf8Bytes("created with the sub-organization"));
      const { r, s, v } = await subOrg.signRawPayload({ signWith: eth.addresses[0].address,
        payload: digest, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" });
      const recovered = recoverAddress(digest, Signature.from({ r: `0x${r}`, s: `0x${s}`, v: 27 + Number(v) }));
      assert.equal(recovered.toLowerCase(), eth.addresses[0].address.toLowerCase());
    });

  test("createSubOrganization V3 refuses a repeated private key name, naming that key's field", async () => {
    const keyParams = { privateKeyName: "same", curve: "CURVE_SECP256K1", privateKeyTags: [],
      addressFormats: ["ADDRESS_FORMAT_ETHEREUM"] };
    await assert.rejects(http120.createSubOrganization({
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V3", timestampMs: now(), organizationId,
      parameters: { subOrganizationName: unique("http120-keys"), rootQuorumThreshold: 1,
        rootUsers: [{ userName: "root", apiKeys: [{ apiKeyName: "k", publicKey: newKeyPair().publicKey }],
          authenticators: [] }],
        privateKeys: [keyParams, keyParams] },
    }), (error) => {
      assert.equal(error.name, "TurnkeyRequestError", error.stack);
      assert.equal(error.code, 3, error.message);
      assert.match(error.message, /parameters\.privateKeys\[1\]\.privateKeyName/);
      return true;
    });
  });
});

describe("@turnkey/http 1.2.0, signing", () => {
  test("signTransaction V1 signs an Ethereum transaction with privateKeyId; ethers recovers the key's address",
    async () => {
      const { privateKeys } = await sdk.createPrivateKeys({ privateKeys: [{ privateKeyName: unique("http120-key"),
        curve: "CURVE_SECP256K1", privateKeyTags: [], addressFormats: ["ADDRESS_FORMAT_ETHEREUM"] }] });
      const [{ privateKeyId, addresses: [{ address }] }] = privateKeys;
      const unsigned = Transaction.from({ type: 2, chainId: 1, nonce: 7, to: "0x000000000000000000000000000000000000dEaD",
        value: 10n ** 15n, gasLimit: 21000n, maxFeePerGas: 3n * 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n });
      const { activity } = await http120.signTransaction({
        type: "ACTIVITY_TYPE_SIGN_TRANSACTION", timestampMs: now(), organizationId,
        parameters: { privateKeyId, type: "TRANSACTION_TYPE_ETHEREUM",
          unsignedTransaction: unsigned.unsignedSerialized.slice(2) },
      });
      const { signedTransaction } = assertCompleted(activity, {
        type: "ACTIVITY_TYPE_SIGN_TRANSACTION", intentKey: "signTransactionIntent", resultKey: "signTransactionResult",
      });
      const signed = Transaction.from(signedTransaction.startsWith("0x") ? signedTransaction : `0x${signedTransaction}`);
      assert.equal(signed.from, address);
      assert.equal(signed.unsignedHash, unsigned.unsignedHash, "the transaction signed is the one sent");
    });
});

describe("@turnkey/sdk-server 0.2.0", () => {
  test("createSubOrganization (V4) with a wallet: the wallet and the root user exist in the sub-organization",
    async () => {
      const key = newKeyPair();
      const created = await sdk020.createSubOrganization({ subOrganizationName: unique("sdk020-sub"),
        rootQuorumThreshold: 1, rootUsers: [{ userName: "root", apiKeys: [{ apiKeyName: "k", publicKey:
          key.publicKey }], authenticators: [] }],
        wallet: { walletName: "w", accounts: [ethereumAccount] } });
      assert.equal(created.activity.status, "ACTIVITY_STATUS_COMPLETED");
      const result = await storedResult(created.activity.id, {
        type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V4", intentKey: "createSubOrganizationIntentV4",
        resultKey: "createSubOrganizationResultV4",
      });
      assert.equal(created.subOrganizationId, result.subOrganizationId);
      const root = sdkClientFor(key, created.subOrganizationId);
      const whoami = await root.getWhoami({});
      assert.deepEqual(created.rootUserIds, [whoami.userId]);
      const { wallet } = await root.getWallet({ walletId: created.wallet.walletId });
      assert.equal(wallet.walletName, "w");
      const { accounts } = await root.getWalletAccounts({ walletId: created.wallet.walletId });
      assert.deepEqual(accounts.map((a) => a.address), created.wallet.addresses);
      assert.match(created.wallet.addresses[0], /^0x[0-9a-fA-F]{40}$/);
    });

  test("emailAuth (V1) without an app name mails a 'Sign in to Keyhaven' bundle whose key stamps as the user",
    async () => {
      const email = `${unique("sdk020-emailauth")}@example.com`;
      const { subOrganizationId, userId } = await subOrganizationUser(email);
      const target = generateP256KeyPair();
      const started = await sdk020.emailAuth({ organizationId: subOrganizationId, email,
        targetPublicKey: target.publicKeyUncompressed, apiKeyName: "sdk 0.2.0 email auth",
        emailCustomization: { magicLinkTemplate: "https://app.example/signin?bundle=%s" } });
      assert.equal(started.activity.status, "ACTIVITY_STATUS_COMPLETED");
      const result = await storedResult(started.activity.id, {
        type: "ACTIVITY_TYPE_EMAIL_AUTH", intentKey: "emailAuthIntent", resultKey: "emailAuthResult",
        orgId: subOrganizationId,
      });
      assert.deepEqual(result, { userId, apiKeyId: started.apiKeyId });

      const { bundle, subject } = mailedBundle(email);
      assert.equal(subject, "Sign in to Keyhaven");
      const key = bundleKey(bundle, target);
      await assertStampsAs(key, subOrganizationId, userId);
      const { apiKeys } = await sdk.getApiKeys({ organizationId: subOrganizationId, userId });
      const issued = apiKeys.find((k) => k.apiKeyId === started.apiKeyId);
      assert.equal(issued.apiKeyName, "sdk 0.2.0 email auth");
      assert.equal(issued.credential.publicKey, key.publicKey);
      assert.equal(issued.credential.type, "CREDENTIAL_TYPE_EMAIL_AUTH_KEY_P256");
    });
});

describe("@turnkey/sdk-server 1.3.0", () => {
  test("createSubOrganization (V6): root user with an email, a P-256 key and no phone; the wallet exists",
    async () => {
      const key = newKeyPair();
      const email = `${unique("sdk130-root")}@example.com`;
      const created = await sdk130.createSubOrganization({ subOrganizationName: unique("sdk130-sub"),
        rootQuorumThreshold: 1, rootUsers: [{ userName: "root", userEmail: email,
          apiKeys: [apiKeyParams("k", key)], authenticators: [], oauthProviders: [] }],
        wallet: { walletName: "w", accounts: [ethereumAccount] } });
      const result = await storedResult(created.activity.id, {
        type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V6", intentKey: "createSubOrganizationIntentV6",
        resultKey: "createSubOrganizationResultV6",
      });
      assert.equal(created.subOrganizationId, result.subOrganizationId);
      const root = sdkClientFor(key, created.subOrganizationId);
      const { user } = await root.getUser({ userId: (await root.getWhoami({})).userId });
      assert.deepEqual(created.rootUserIds, [user.userId]);
      assert.equal(user.userEmail, email);
      const { accounts } = await root.getWalletAccounts({ walletId: created.wallet.walletId });
      assert.deepEqual(accounts.map((a) => a.address), created.wallet.addresses);
    });

  test("emailAuth (V2) with invalidateExisting: the new bundle's key works, the earlier one is gone", async () => {
    const email = `${unique("sdk130-emailauth")}@example.com`;
    const { subOrganizationId, userId } = await subOrganizationUser(email);
    const first = generateP256KeyPair();
    const earlier = await sdk.emailAuth({ organizationId: subOrganizationId, email,
      targetPublicKey: first.publicKeyUncompressed, emailCustomization: { appName: "Earlier" } });

    const target = generateP256KeyPair();
    const started = await sdk130.emailAuth({ organizationId: subOrganizationId, email,
      targetPublicKey: target.publicKeyUncompressed, invalidateExisting: true,
      emailCustomization: { appName: "Interop 1.3", magicLinkTemplate: "https://app.example/signin?bundle=%s" } });
    const result = await storedResult(started.activity.id, {
      type: "ACTIVITY_TYPE_EMAIL_AUTH_V2", intentKey: "emailAuthIntentV2", resultKey: "emailAuthResult",
      orgId: subOrganizationId,
    });
    assert.deepEqual(result, { userId, apiKeyId: started.apiKeyId });

    const { apiKeys } = await sdk.getApiKeys({ organizationId: subOrganizationId, userId });
    const ids = apiKeys.map((k) => k.apiKeyId);
    assert.ok(ids.includes(started.apiKeyId), "the new key exists");
    assert.ok(!ids.includes(earlier.apiKeyId), "the earlier email-auth key was invalidated");
    // Two messages went to the address: the newest carries the V2 bundle.
    const { bundle, subject } = mailedBundle(email, { messages: 2 });
    assert.equal(subject, "Sign in to Interop 1.3");
    const key = bundleKey(bundle, target);
    await assertStampsAs(key, subOrganizationId, userId);
  });
});

describe("@turnkey/http 2.16.0", () => {
  test("initOtpAuth V1 mails a six-digit code; otpAuth spends it on a bundle whose key stamps as the user",
    async () => {
      const email = `${unique("http2160-otp")}@example.com`;
      const { subOrganizationId, userId } = await subOrganizationUser(email);
      const init = await http2160.initOtpAuth({
        type: "ACTIVITY_TYPE_INIT_OTP_AUTH", timestampMs: now(), organizationId: subOrganizationId,
        parameters: { otpType: "OTP_TYPE_EMAIL", contact: email, emailCustomization: { appName: "Interop 2.16" } },
      });
      const { otpId } = assertCompleted(init.activity, {
        type: "ACTIVITY_TYPE_INIT_OTP_AUTH", intentKey: "initOtpAuthIntent", resultKey: "initOtpAuthResult",
        orgId: subOrganizationId,
      });
      assert.deepEqual(Object.keys(init.activity.result.initOtpAuthResult), ["otpId"]);
      const code = emailedCode(email);
      assert.match(code, /^[0-9]{6}$/);
      assert.match(messageTo(email), /Interop 2\.16/);

      const target = generateP256KeyPair();
      const done = await http2160.otpAuth({
        type: "ACTIVITY_TYPE_OTP_AUTH", timestampMs: now(), organizationId: subOrganizationId,
        parameters: { otpId, otpCode: code, targetPublicKey: target.publicKeyUncompressed },
      });
      const result = assertCompleted(done.activity, {
        type: "ACTIVITY_TYPE_OTP_AUTH", intentKey: "otpAuthIntent", resultKey: "otpAuthResult",
        orgId: subOrganizationId,
      });
      assert.equal(result.userId, userId);
      await assertStampsAs(bundleKey(result.credentialBundle, target), subOrganizationId, userId);
    });

  test("createSubOrganization V7: the root user's key stamps in the new sub-organization", async () => {
    const key = newKeyPair();
    const { activity } = await http2160.createSubOrganization({
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7", timestampMs: now(), organizationId,
      parameters: { subOrganizationName: unique("http2160-sub"), rootQuorumThreshold: 1,
        rootUsers: [{ userName: "root", apiKeys: [apiKeyParams("k", key)], authenticators: [],
          oauthProviders: [] }] },
    });
    const result = assertCompleted(activity, {
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7", intentKey: "createSubOrganizationIntentV7",
      resultKey: "createSubOrganizationResultV7",
    });
    const whoami = await sdkClientFor(key, result.subOrganizationId).getWhoami({});
    assert.equal(whoami.organizationId, result.subOrganizationId);
    assert.deepEqual(result.rootUserIds, [whoami.userId]);
  });
});

describe("@turnkey/http 3.15.0", () => {
  test("initOtpAuth V2 with a length and digits only; otpAuth gives a bundle whose key stamps as the user",
    async () => {
      const email = `${unique("http3150-otp")}@example.com`;
      const { subOrganizationId, userId } = await subOrganizationUser(email);
      const init = await http3150.initOtpAuth({
        type: "ACTIVITY_TYPE_INIT_OTP_AUTH_V2", timestampMs: now(), organizationId: subOrganizationId,
        parameters: { otpType: "OTP_TYPE_EMAIL", contact: email, otpLength: 7, alphanumeric: false },
      });
      const { otpId } = assertCompleted(init.activity, {
        type: "ACTIVITY_TYPE_INIT_OTP_AUTH_V2", intentKey: "initOtpAuthIntentV2", resultKey: "initOtpAuthResultV2",
        orgId: subOrganizationId,
      });
      const code = emailedCode(email);
      assert.match(code, /^[0-9]{7}$/);
      assert.match(messageTo(email), /Keyhaven/, "no app name: the default");

      const target = generateP256KeyPair();
      const done = await http3150.otpAuth({
        type: "ACTIVITY_TYPE_OTP_AUTH", timestampMs: now(), organizationId: subOrganizationId,
        parameters: { otpId, otpCode: code, targetPublicKey: target.publicKeyUncompressed, apiKeyName: "otp 3.15" },
      });
      const result = assertCompleted(done.activity, {
        type: "ACTIVITY_TYPE_OTP_AUTH", intentKey: "otpAuthIntent", resultKey: "otpAuthResult",
        orgId: subOrganizationId,
      });
      assert.equal(result.userId, userId);
      await assertStampsAs(bundleKey(result.credentialBundle, target), subOrganizationId, userId);
      const { apiKeys } = await sdk.getApiKeys({ organizationId: subOrganizationId, userId });
      assert.equal(apiKeys.find((k) => k.apiKeyId === result.apiKeyId).apiKeyName, "otp 3.15");
    });

  test("emailAuth V2 mails a bundle whose key stamps as the user", async () => {
    const email = `${unique("http3150-emailauth")}@example.com`;
    const { subOrganizationId, userId } = await subOrganizationUser(email);
    const target = generateP256KeyPair();
    const { activity } = await http3150.emailAuth({
      type: "ACTIVITY_TYPE_EMAIL_AUTH_V2", timestampMs: now(), organizationId: subOrganizationId,
      parameters: { email, targetPublicKey: target.publicKeyUncompressed,
        emailCustomization: { appName: "Interop 3.15", magicLinkTemplate: "https://app.example/s?bundle=%s" } },
    });
    const result = assertCompleted(activity, {
      type: "ACTIVITY_TYPE_EMAIL_AUTH_V2", intentKey: "emailAuthIntentV2", resultKey: "emailAuthResult",
      orgId: subOrganizationId,
    });
    assert.equal(result.userId, userId);
    const { bundle, subject } = mailedBundle(email);
    assert.equal(subject, "Sign in to Interop 3.15");
    await assertStampsAs(bundleKey(bundle, target), subOrganizationId, userId);
  });
});

describe("@turnkey/sdk-server 5.3.0", () => {
  test("initOtp (V2), verifyOtp (V1) with the code bound to a key, otpLogin (V1) signed by that key",
    async () => {
      const name = unique("sdk530-otp");
      const email = `${name}@example.com`;
      const { userIds } = await sdk.createUsers({ users: [{ userName: name, userEmail: email, apiKeys: [],
        authenticators: [], oauthProviders: [], userTags: [] }] });
      const init = await sdk530.initOtp({ otpType: "OTP_TYPE_EMAIL", contact: email, appName: "Interop 5.3",
        otpLength: 8, alphanumeric: false });
      const { otpId } = assertCompleted(init.activity, {
        type: "ACTIVITY_TYPE_INIT_OTP_V2", intentKey: "initOtpIntentV2", resultKey: "initOtpResult",
      });
      assert.equal(init.otpId, otpId);
      assert.deepEqual(Object.keys(init.activity.result.initOtpResult), ["otpId"]);
      const code = emailedCode(email);
      assert.match(code, /^[0-9]{8}$/);
      assert.match(messageTo(email), /Interop 5\.3/);

      // The code is verified for the token's key, so the token is bound to it and the login must be signed by it.
      const tokenKey = newKeyPair();
      const verified = await sdk530.verifyOtp({ otpId, otpCode: code, publicKey: tokenKey.publicKey });
      const { verificationToken } = assertCompleted(verified.activity, {
        type: "ACTIVITY_TYPE_VERIFY_OTP", intentKey: "verifyOtpIntent", resultKey: "verifyOtpResult",
      });
      const token = JSON.parse(Buffer.from(verificationToken.split(".")[1], "base64url"));
      assert.equal(token.public_key, tokenKey.publicKey);

      const session = newKeyPair();
      const login = (clientSignature) => sdk530.otpLogin({ verificationToken, publicKey: session.publicKey,
        ...(clientSignature && { clientSignature }) });
      await assertRequestError(login(undefined), { code: 3, message: /clientSignature/ });
      // What @turnkey/core's getClientSignatureMessageForLogin builds, signed as a stamp signs (P-256, DER hex).
      const message = JSON.stringify({ login: { publicKey: session.publicKey }, tokenId: token.id,
        type: "USAGE_TYPE_LOGIN" });
      const signature = p256.sign(sha256(message), tokenKey.privateKey).toDERHex();
      const done = await login({ publicKey: tokenKey.publicKey, scheme: "CLIENT_SIGNATURE_SCHEME_API_P256",
        message, signature });
      const { session: jwt } = assertCompleted(done.activity, {
        type: "ACTIVITY_TYPE_OTP_LOGIN", intentKey: "otpLoginIntentV2", resultKey: "otpLoginResult",
      });
      assert.equal(done.session, jwt);
      assert.equal(JSON.parse(Buffer.from(jwt.split(".")[1], "base64url")).user_id, userIds[0]);
      await assertStampsAs(session, organizationId, userIds[0]);
    });

  test("createOauthProviders (V1) adds an OIDC provider: listed, then signing in with oauth_login and oauth (V1)",
    async () => {
      // A sub-organization user adds the provider to itself with an ID token of the server's trusted issuer.
      const key = newKeyPair();
      const { subOrganizationId, rootUserIds: [userId] } = await sdk.createSubOrganization({
        subOrganizationName: unique("sdk530-oauth"), rootQuorumThreshold: 1, rootUsers: [{ userName: "root",
          apiKeys: [apiKeyParams("k", key)], authenticators: [], oauthProviders: [] }] });
      const asUser = new SdkServer530({ apiBaseUrl: baseUrl, apiPublicKey: key.publicKey,
        apiPrivateKey: key.privateKey, defaultOrganizationId: subOrganizationId }).apiClient();
      const sub = unique("oidc-subject");
      const { token, issuer, audience } = oidcToken({ sub });
      const created = await asUser.createOauthProviders({ userId,
        oauthProviders: [{ providerName: "Interop issuer", oidcToken: token }] });
      const { providerIds } = assertCompleted(created.activity, {
        type: "ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS", intentKey: "createOauthProvidersIntent",
        resultKey: "createOauthProvidersResult", orgId: subOrganizationId,
      });
      assert.equal(providerIds.length, 1);

      const { oauthProviders } = await sdk.getOauthProviders({ organizationId: subOrganizationId, userId });
      assert.deepEqual(oauthProviders.map((p) => [p.providerId, p.providerName, p.issuer, p.audience, p.subject]),
        [[providerIds[0], "Interop issuer", issuer, audience, sub]]);

      // oauth_login through the auth proxy, as @turnkey/core sends it: the proxy finds the user holding the identity
      // among its organization's sub-organizations and opens a session for the key the token's nonce binds.
      const session = newKeyPair();
      const response = await fetch(`${authProxyUrl}/v1/oauth_login`, { method: "POST",
        headers: { "Content-Type": "application/json", "X-Auth-Proxy-Config-ID": authProxyConfigId },
        body: JSON.stringify({ oidcToken: oidcToken({ sub, nonce: sessionNonce(session.publicKey) }).token,
          publicKey: session.publicKey }) });
      assert.equal(response.status, 200);
      const { session: jwt } = await response.json();
      assert.equal(JSON.parse(Buffer.from(jwt.split(".")[1], "base64url")).user_id, userId);
      await assertStampsAs(session, subOrganizationId, userId);

      // oauth (its one version, @turnkey/http 3.15.0): a credential bundle sealed to the target key.
      const target = generateP256KeyPair();
      const { activity } = await http3150.oauth({ type: "ACTIVITY_TYPE_OAUTH", timestampMs: now(),
        organizationId: subOrganizationId, parameters: { targetPublicKey: target.publicKeyUncompressed,
          oidcToken: oidcToken({ sub, nonce: sessionNonce(target.publicKeyUncompressed) }).token } });
      const result = assertCompleted(activity, { type: "ACTIVITY_TYPE_OAUTH", intentKey: "oauthIntent",
        resultKey: "oauthResult", orgId: subOrganizationId });
      assert.equal(result.userId, userId);
      await assertStampsAs(bundleKey(result.credentialBundle, target), subOrganizationId, userId);

      // A token for another subject names no provider of the organization.
      await assertRequestError(sdkClientFor(key, subOrganizationId).oauthLogin({
        oidcToken: oidcToken({ sub: unique("stranger"), nonce: sessionNonce(session.publicKey) }).token,
        publicKey: session.publicKey }), { code: 5 });
    });

  test("createSubOrganization (V7) with a wallet: both exist afterwards", async () => {
    const key = newKeyPair();
    const created = await sdk530.createSubOrganization({ subOrganizationName: unique("sdk530-sub"),
      rootQuorumThreshold: 1, rootUsers: [{ userName: "root", apiKeys: [apiKeyParams("k", key)],
        authenticators: [], oauthProviders: [] }],
      wallet: { walletName: "w", accounts: [ethereumAccount] } });
    const result = assertCompleted(created.activity, {
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7", intentKey: "createSubOrganizationIntentV7",
      resultKey: "createSubOrganizationResultV7",
    });
    const root = sdkClientFor(key, result.subOrganizationId);
    assert.deepEqual(result.rootUserIds, [(await root.getWhoami({})).userId]);
    const { accounts } = await root.getWalletAccounts({ walletId: result.wallet.walletId });
    assert.deepEqual(accounts.map((a) => a.address), result.wallet.addresses);
  });
});
