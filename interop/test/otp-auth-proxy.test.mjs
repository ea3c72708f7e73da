// One-time-password login through the auth proxy with the official clients: the code goes to the Maildir of the
// server's data directory (no SMTP server in this run); @turnkey/crypto's encryptOtpCodeToBundle encrypts it to the
// target bundle, trusting Keyhaven's OTP signer through its override key; verifyOtpVerificationToken and
// verifySessionJwtSignature check the token and the session JWT against the published signers; the session key
// then stamps requests through @turnkey/sdk-server.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  encryptOtpCodeToBundle,
  generateP256KeyPair,
  verifyOtpVerificationToken,
  verifySessionJwtSignature,
} from "@turnkey/crypto";
import {
  apiKeyParams,
  authProxyConfigId,
  authProxyUrl,
  baseUrl,
  newKeyPair,
  organizationId,
  sdkClientFor,
  stamperFor,
  unique,
} from "../lib/keyhaven.mjs";
import { emailedCode } from "../lib/maildir.mjs";

const proxyUrl = authProxyUrl;
const configId = authProxyConfigId;
const sdk = sdkClientFor();

async function published(which) {
  const response = await fetch(`${baseUrl}/public/v1/discovery/${which}`);
  assert.equal(response.status, 200);
  return (await response.json()).publicKey;
}

/** A call to the auth proxy the way @turnkey/core's authProxyRequest makes it. */
async function proxy(operation, body, headers = {}) {
  const response = await fetch(`${proxyUrl}/v1/${operation}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Auth-Proxy-Config-ID": configId, ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** What @turnkey/core's getClientSignatureMessageForLogin builds, signed by the token's key (DER hex). */
async function clientSignature(token, tokenKey, sessionPublicKey) {
  const claims = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8"));
  const message = JSON.stringify({ login: { publicKey: sessionPublicKey }, tokenId: claims.id,
    type: "USAGE_TYPE_LOGIN" });
  const stamp = await stamperFor({ publicKey: tokenKey.publicKey, privateKey: tokenKey.privateKey }).stamp(message);
  const { signature } = JSON.parse(Buffer.from(stamp.stampHeaderValue, "base64url").toString("utf8"));
  return { publicKey: tokenKey.publicKey, scheme: "CLIENT_SIGNATURE_SCHEME_API_P256", message, signature };
}

describe("OTP login through the auth proxy with @turnkey/crypto", () => {
  test("email code → encryptOtpCodeToBundle → verification token → session that stamps", async () => {
    const email = `${unique("otp")}@example.com`;
    const created = await sdk.createUsers({ users: [{ userName: unique("otp"), userEmail: email,
      apiKeys: [apiKeyParams("k", newKeyPair())], authenticators: [], oauthProviders: [], userTags: [] }] });
    const userId = created.userIds[0];
    const otpSigner = await published("otp-signer");
    const sessionSigner = await published("session-signer");

    const init = await proxy("otp_init_v2", { otpType: "OTP_TYPE_EMAIL", contact: email });
    assert.equal(init.status, 200, JSON.stringify(init.body));
    assert.equal(typeof init.body.otpId, "string");

    const tokenKey = generateP256KeyPair();
    const encryptedOtpBundle = await encryptOtpCodeToBundle(emailedCode(email), init.body.otpEncryptionTargetBundle,
      tokenKey.publicKey, otpSigner);
    // Without the override, the bundle is (rightly) not trusted: it is not signed by Turnkey's production key.
    await assert.rejects(encryptOtpCodeToBundle("000000", init.body.otpEncryptionTargetBundle, tokenKey.publicKey));

    const verify = await proxy("otp_verify_v2", { otpId: init.body.otpId, encryptedOtpBundle });
    assert.equal(verify.status, 200, JSON.stringify(verify.body));
    const claims = await verifyOtpVerificationToken(verify.body.verificationToken, otpSigner);
    assert.equal(claims.contact, email);
    assert.equal(claims.organization_id, organizationId);
    assert.equal(claims.verification_type, "OTP_TYPE_EMAIL");

    const session = generateP256KeyPair();
    const login = await proxy("otp_login_v2", { verificationToken: verify.body.verificationToken,
      publicKey: session.publicKey,
      clientSignature: await clientSignature(verify.body.verificationToken, tokenKey, session.publicKey) });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    assert.equal(await verifySessionJwtSignature(login.body.session, sessionSigner), true);
    const sessionClaims = JSON.parse(Buffer.from(login.body.session.split(".")[1], "base64url").toString("utf8"));
    assert.equal(sessionClaims.user_id, userId);
    assert.equal(sessionClaims.organization_id, organizationId);

    const whoami = await sdkClientFor({ publicKey: session.publicKey, privateKey: session.privateKey }).getWhoami();
    assert.equal(whoami.userId, userId);

    // The code and the token work once.
    const again = await proxy("otp_verify_v2", { otpId: init.body.otpId, encryptedOtpBundle });
    assert.equal(again.status, 400);
    assert.match(again.body.message, /already used/);
  });

  test("a missing or unknown config id is refused in the usual error shape", async () => {
    const missing = await proxy("otp_init_v2", { otpType: "OTP_TYPE_EMAIL", contact: "a@example.com" },
      { "X-Auth-Proxy-Config-ID": "" });
    assert.equal(missing.status, 400);
    assert.equal(typeof missing.body.turnkeyErrorCode, "string");
    const unknown = await proxy("otp_init_v2", { otpType: "OTP_TYPE_EMAIL", contact: "a@example.com" },
      { "X-Auth-Proxy-Config-ID": "00000000-0000-0000-0000-000000000000" });
    assert.equal(unknown.status, 404);
  });
});
