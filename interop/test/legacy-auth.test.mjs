// The older credential-bundle sign-ins as @turnkey/sdk-server 8.2.1 still exposes them: emailAuth
// (ACTIVITY_TYPE_EMAIL_AUTH_V3), and initOtpAuth (ACTIVITY_TYPE_INIT_OTP_AUTH_V3) with otpAuth. As the SDKs' server
// actions do, the parent organization's API key submits them with organizationId = the user's sub-organization
// (suborgID). The server under test has no SMTP server, so the messages land in the Maildir of its data directory,
// where this test reads them as a mail client would; @turnkey/crypto's decryptCredentialBundle opens each bundle with
// the target key, and the key inside then stamps whoami as the user, in the sub-organization.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { decryptCredentialBundle, generateP256KeyPair, getPublicKey } from "@turnkey/crypto";
import {
  apiKeyParams,
  assertCompleted,
  assertRequestError,
  newKeyPair,
  sdkClientFor,
  unique,
} from "../lib/keyhaven.mjs";
import { emailedCode, messageTo } from "../lib/maildir.mjs";

const sdk = sdkClientFor();
const maildir = path.join(path.dirname(process.env.KEYHAVEN_API_KEY_PREFIX), "maildir", "new");


/** A sub-organization whose root user has `email` (and an API key of its own): its id and the user's id. */
async function newSubOrganizationUser(email) {
  const key = newKeyPair();
  const created = await sdk.createSubOrganization({ subOrganizationName: unique("legacy-sub"), rootQuorumThreshold: 1,
    rootUsers: [{ userName: unique("legacy"), userEmail: email, apiKeys: [apiKeyParams("k", key)],
      authenticators: [], oauthProviders: [] }] });
  const subOrganizationId = created.subOrganizationId;
  const { userId } = await sdkClientFor(key, subOrganizationId).getWhoami({});
  return { subOrganizationId, userId };
}

/** A client stamping, in `orgId`, with the private key a credential bundle carries. */
function clientFromBundle(bundle, target, orgId) {
  const privateKey = decryptCredentialBundle(bundle, target.privateKey);
  assert.match(privateKey, /^[0-9a-f]{64}$/);
  return sdkClientFor({ publicKey: Buffer.from(getPublicKey(privateKey, true)).toString("hex"), privateKey }, orgId);
}

/** The credential type get_api_keys shows for `apiKeyId` of `userId`. */
async function credentialType(subOrganizationId, userId, apiKeyId) {
  const { apiKeys } = await sdk.getApiKeys({ organizationId: subOrganizationId, userId });
  return apiKeys.find((k) => k.apiKeyId === apiKeyId)?.credential.type;
}

describe("older sign-ins through @turnkey/sdk-server 8.2.1, opened with @turnkey/crypto", () => {
  test("emailAuth mails a credential bundle whose key stamps as the user", async () => {
    const email = `${unique("emailauth")}@example.com`;
    const { subOrganizationId, userId } = await newSubOrganizationUser(email);
    const target = generateP256KeyPair();
    const started = await sdk.emailAuth({
      organizationId: subOrganizationId,
      email, targetPublicKey: target.publicKeyUncompressed, apiKeyName: "interop email auth",
      emailCustomization: { appName: "Interop", magicLinkTemplate: "https://app.example/signin?bundle=%s" },
    });
    assertCompleted(started.activity, {
      type: "ACTIVITY_TYPE_EMAIL_AUTH_V3", intentKey: "emailAuthIntentV3", resultKey: "emailAuthResult",
      orgId: subOrganizationId,
    });
    assert.equal(started.userId, userId);
    assert.equal(typeof started.apiKeyId, "string");

    const message = messageTo(email);
    assert.match(message, /Subject: Sign in to Interop/);
    const link = message.match(/bundle=([1-9A-HJ-NP-Za-km-z]+)/);
    assert.ok(link, `a magic link with the bundle in:\n${message}`);
    const bundle = link[1];
    const signedIn = clientFromBundle(bundle, target, subOrganizationId);
    assert.equal((await signedIn.getWhoami({})).userId, userId);
    const { apiKeys } = await sdk.getApiKeys({ organizationId: subOrganizationId, userId });
    const issued = apiKeys.find((k) => k.apiKeyId === started.apiKeyId);
    assert.equal(issued.apiKeyName, "interop email auth");
    assert.equal(issued.expirationSeconds, "900");
    assert.equal(issued.credential.type, "CREDENTIAL_TYPE_EMAIL_AUTH_KEY_P256");
  });

  test("emailAuth for an email nobody has is refused, and nothing is mailed", async () => {
    const email = `${unique("nobody")}@example.com`;
    const { subOrganizationId } = await newSubOrganizationUser(`${unique("somebody")}@example.com`);
    await assertRequestError(sdk.emailAuth({ organizationId: subOrganizationId, email,
      targetPublicKey: generateP256KeyPair().publicKeyUncompressed, emailCustomization: { appName: "Interop" } }),
    { code: 5 });
    assert.equal(fs.readdirSync(maildir).map((n) => fs.readFileSync(path.join(maildir, n), "utf8"))
      .filter((raw) => raw.includes(`To: ${email}`)).length, 0);
  });

  test("initOtpAuth emails a code that otpAuth spends on a credential bundle, once", async () => {
    const email = `${unique("otpauth")}@example.com`;
    const { subOrganizationId, userId } = await newSubOrganizationUser(email);
    const { otpId, activity } = await sdk.initOtpAuth({ organizationId: subOrganizationId, otpType: "OTP_TYPE_EMAIL",
      contact: email, appName: "Interop", otpLength: 6, alphanumeric: false });
    assertCompleted(activity, {
      type: "ACTIVITY_TYPE_INIT_OTP_AUTH_V3", intentKey: "initOtpAuthIntentV3", resultKey: "initOtpAuthResultV2",
      orgId: subOrganizationId,
    });
    const code = emailedCode(email);
    assert.match(code, /^[0-9]{6}$/);

    const target = generateP256KeyPair();
    const done = await sdk.otpAuth({ organizationId: subOrganizationId, otpId, otpCode: code,
      targetPublicKey: target.publicKey });
    assertCompleted(done.activity, { type: "ACTIVITY_TYPE_OTP_AUTH", intentKey: "otpAuthIntent",
      resultKey: "otpAuthResult", orgId: subOrganizationId });
    assert.equal(done.userId, userId);
    assert.equal(typeof done.apiKeyId, "string");
    assert.equal((await clientFromBundle(done.credentialBundle, target, subOrganizationId).getWhoami({})).userId,
      userId);
    assert.equal(await credentialType(subOrganizationId, userId, done.apiKeyId), "CREDENTIAL_TYPE_OTP_AUTH_KEY_P256");

    await assertRequestError(sdk.otpAuth({ organizationId: subOrganizationId, otpId, otpCode: code,
      targetPublicKey: target.publicKey }), { code: 3, message: /this OTP was already used; request a new code/ });
  });

  test("the parent may initiate sign-ins for its sub-organization, and nothing else there", async () => {
    const { subOrganizationId } = await newSubOrganizationUser(`${unique("readonly")}@example.com`);
    await assertRequestError(sdk.createWallet({ organizationId: subOrganizationId, walletName: unique("no"),
      accounts: [] }), { code: 3, message: /organization mismatch: request is targeting organization/ });
  });
});
