// The older credential-bundle sign-ins as @turnkey/sdk-server 8.2.1 still exposes them: emailAuth
// (ACTIVITY_TYPE_EMAIL_AUTH_V3), and initOtpAuth (ACTIVITY_TYPE_INIT_OTP_AUTH_V3) with otpAuth. The server under
// test has no SMTP server, so the messages land in the Maildir of its data directory, where this test reads them as
// a mail client would; @turnkey/crypto's decryptCredentialBundle opens each bundle with the target key, and the key
// inside then stamps whoami as the user.
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

/** The one message to `email` in the Maildir, quoted-printable undone. */

async function newUser(email) {
  const created = await sdk.createUsers({ users: [{ userName: unique("legacy"), userEmail: email,
    apiKeys: [apiKeyParams("k", newKeyPair())], authenticators: [], oauthProviders: [], userTags: [] }] });
  return created.userIds[0];
}

/** A client stamping with the private key a credential bundle carries. */
function clientFromBundle(bundle, target) {
  const privateKey = decryptCredentialBundle(bundle, target.privateKey);
  assert.match(privateKey, /^[0-9a-f]{64}$/);
  return sdkClientFor({ publicKey: Buffer.from(getPublicKey(privateKey, true)).toString("hex"), privateKey });
}

describe("older sign-ins through @turnkey/sdk-server 8.2.1, opened with @turnkey/crypto", () => {
  test("emailAuth mails a credential bundle whose key stamps as the user", async () => {
    const email = `${unique("emailauth")}@example.com`;
    const userId = await newUser(email);
    const target = generateP256KeyPair();
    const started = await sdk.emailAuth({
      email, targetPublicKey: target.publicKeyUncompressed, apiKeyName: "interop email auth",
      emailCustomization: { appName: "Interop", magicLinkTemplate: "https://app.example/signin?bundle=%s" },
    });
    assertCompleted(started.activity, {
      type: "ACTIVITY_TYPE_EMAIL_AUTH_V3", intentKey: "emailAuthIntentV3", resultKey: "emailAuthResult",
    });
    assert.equal(started.userId, userId);
    assert.equal(typeof started.apiKeyId, "string");

    const message = messageTo(email);
    assert.match(message, /Subject: Sign in to Interop/);
    const bundle = message.match(/bundle=([1-9A-HJ-NP-Za-km-z]+)/)[1];
    const signedIn = clientFromBundle(bundle, target);
    assert.equal((await signedIn.getWhoami({})).userId, userId);
    const { apiKeys } = await sdk.getApiKeys({ userId });
    const issued = apiKeys.find((k) => k.apiKeyId === started.apiKeyId);
    assert.equal(issued.apiKeyName, "interop email auth");
    assert.equal(issued.expirationSeconds, "900");
  });

  test("emailAuth for an email nobody has is refused, and nothing is mailed", async () => {
    const email = `${unique("nobody")}@example.com`;
    await assertRequestError(sdk.emailAuth({ email, targetPublicKey: generateP256KeyPair().publicKeyUncompressed,
      emailCustomization: { appName: "Interop" } }), { code: 5 });
    assert.equal(fs.readdirSync(maildir).map((n) => fs.readFileSync(path.join(maildir, n), "utf8"))
      .filter((raw) => raw.includes(`To: ${email}`)).length, 0);
  });

  test("initOtpAuth emails a code that otpAuth spends on a credential bundle, once", async () => {
    const email = `${unique("otpauth")}@example.com`;
    const userId = await newUser(email);
    const { otpId, activity } = await sdk.initOtpAuth({ otpType: "OTP_TYPE_EMAIL", contact: email,
      appName: "Interop", otpLength: 6, alphanumeric: false });
    assertCompleted(activity, {
      type: "ACTIVITY_TYPE_INIT_OTP_AUTH_V3", intentKey: "initOtpAuthIntentV3", resultKey: "initOtpAuthResultV2",
    });
    const code = emailedCode(email);
    assert.match(code, /^[0-9]{6}$/);

    const target = generateP256KeyPair();
    const done = await sdk.otpAuth({ otpId, otpCode: code, targetPublicKey: target.publicKey });
    assertCompleted(done.activity, { type: "ACTIVITY_TYPE_OTP_AUTH", intentKey: "otpAuthIntent",
      resultKey: "otpAuthResult" });
    assert.equal(done.userId, userId);
    assert.equal(typeof done.apiKeyId, "string");
    assert.equal((await clientFromBundle(done.credentialBundle, target).getWhoami({})).userId, userId);

    await assertRequestError(sdk.otpAuth({ otpId, otpCode: code, targetPublicKey: target.publicKey }),
      { code: 3, message: /this OTP was already used; request a new code/ });
  });
});
