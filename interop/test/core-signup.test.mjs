// @turnkey/core 2.8.1's TurnkeyClient signs a new user up through the auth proxy with an emailed code, unchanged:
// initOtp (/v1/otp_init_v2), the code verified for a key core generated (/v1/otp_verify_v2), signUpWithOtp
// (/v1/signup_v2 with the verification token, the email, an optional wallet and core's clientSignature: the token's
// key signing {"signupV2":{apiKeys, authenticators, oauthProviders, email}, tokenId, type: "USAGE_TYPE_SIGNUP"}),
// whose loginWithOtp then opens a session in the new sub-organization (stamp_login with an attested stamp bearing
// the token); under that session fetchWallets lists the sign-up's wallet and signMessage signs with it (checked with
// viem).
//
// The one step not done by core's own method is the verification. core's verifyOtp (and completeOtp, which calls
// it) encrypts the code with encryptOtpCodeToBundle and no signer key, so @turnkey/crypto accepts only Turnkey's
// production OTP signer and refuses Keyhaven's bundle before anything is sent; nothing in core overrides that, and
// Keyhaven does not weaken its bundle to get around it. The supported path, which this test takes, is verifyOtp's
// two steps with Keyhaven's OTP signer pinned: encryptOtpCodeToBundle(code, bundle, key, <the key published at
// /public/v1/discovery/otp-signer>) and core's own httpClient.proxyVerifyOtpV2, then signUpWithOtp (a new contact)
// or loginWithOtp (a known one). Sign-in of an existing user is a second code for the same email, verified the same
// way, then core's httpClient.proxyGetAccount (/v1/account with filterType EMAIL and the verification token) for
// the sub-organization, and loginWithOtp into it. See docs/authentication.md.
import "../lib/browser-globals.mjs";
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { OtpType, TurnkeyClient } from "@turnkey/core";
import { encryptOtpCodeToBundle } from "@turnkey/crypto";
import { verifyMessage } from "viem";
import { authProxyUrl, baseUrl, organizationId, rawPost, unique } from "../lib/keyhaven.mjs";
import { emailedCode } from "../lib/maildir.mjs";

// buildSignUpBody names a passkey after window.location.hostname whether or not one is sent: the page's address.
globalThis.location = new URL("https://app.keyhaven.test/");

const ethereumAccount = {
  curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0",
  addressFormat: "ADDRESS_FORMAT_ETHEREUM",
};

/**
 * A configuration of the root organization that allows sign-up by email (the server's default one does not), made
 * with Keyhaven's update_auth_proxy_config (no official client exposes it).
 */
async function signUpConfig() {
  const response = await rawPost("/public/v1/submit/update_auth_proxy_config", {
    type: "ACTIVITY_TYPE_UPDATE_AUTH_PROXY_CONFIG", timestampMs: String(Date.now()), organizationId,
    parameters: { signupEnabled: true, emailEnabled: true },
  });
  const body = await response.json();
  assert.equal(response.status, 200, JSON.stringify(body));
  return body.activity.result.updateAuthProxyConfigResult.configId;
}

/** initOtp (the `round`th code sent to `email`), then verifyOtp's two steps with Keyhaven's OTP signer pinned: a verification token for a core key. */
async function verifiedToken(client, email, { round = 1 } = {}) {
  const { otpId, otpEncryptionTargetBundle } = await client.initOtp({ otpType: OtpType.Email, contact: email });
  const otpSigner = (await (await fetch(`${baseUrl}/public/v1/discovery/otp-signer`)).json()).publicKey;
  const publicKey = await client.createApiKeyPair();
  const encryptedOtpBundle = await encryptOtpCodeToBundle(emailedCode(email, { messages: round }), otpEncryptionTargetBundle, publicKey,
    otpSigner);
  const { verificationToken } = await client.httpClient.proxyVerifyOtpV2({ otpId, encryptedOtpBundle });
  return { verificationToken, publicKey };
}

/**
 * Under the client's session: fetchWallets lists `walletName` with its one Ethereum account, and signMessage signs
 * `message` with it (EIP-191), which viem verifies against the account's address. Returns the account.
 */
async function signsWithWallet(client, walletName, message) {
  const wallets = await client.fetchWallets();
  const wallet = wallets.find((w) => w.walletName === walletName);
  assert.ok(wallet, `fetchWallets lists ${walletName}: ${JSON.stringify(wallets.map((w) => w.walletName))}`);
  assert.equal(wallet.accounts.length, 1);
  const [account] = wallet.accounts;
  assert.equal(account.addressFormat, "ADDRESS_FORMAT_ETHEREUM");
  const { r, s, v } = await client.signMessage({ walletAccount: account, message, addEthereumPrefix: true });
  const signature = `0x${r}${s}${(27 + parseInt(v, 16)).toString(16)}`;
  assert.equal(await verifyMessage({ address: account.address, message, signature }), true,
    "viem recovers the account's address from the EIP-191 signature");
  return account;
}

describe("@turnkey/core sign-up through the auth proxy", () => {
  test("initOtp → otp_verify_v2 with the pinned OTP signer → signUpWithOtp (signup_v2 with a wallet) → a session "
    + "in the new sub-organization that fetches the wallet and signs with it", async () => {
    const client = new TurnkeyClient({
      apiBaseUrl: baseUrl, authProxyUrl, authProxyConfigId: await signUpConfig(), organizationId,
    });
    await client.init();
    const email = `${unique("core-signup")}@example.com`;
    const walletName = unique("core-signup-wallet");
    const { verificationToken, publicKey } = await verifiedToken(client, email);

    const { sessionToken } = await client.signUpWithOtp({
      verificationToken, contact: email, otpType: OtpType.Email,
      createSubOrgParams: { customWallet: { walletName, walletAccounts: [ethereumAccount] } },
    });

    const session = await client.getSession();
    assert.equal(session.token, sessionToken);
    assert.notEqual(session.organizationId, organizationId, "the session is in a new sub-organization");
    assert.equal(session.publicKey, publicKey, "the verification token's key is the session's key");
    const user = await client.fetchUser();
    assert.equal(user.userId, session.userId);
    assert.equal(user.userEmail, email);
    assert.equal(user.userName, email, "core names the user after the email");

    await signsWithWallet(client, walletName, "signed up with Keyhaven");
    // The token signed up once: a second sign-up with it is refused (409, the email has an account now).
    await assert.rejects(client.signUpWithOtp({ verificationToken, contact: email, otpType: OtpType.Email }),
      (error) => {
        assert.equal(error.name, "TurnkeyError");
        assert.match(String(error.cause?.message), /an account with this email already exists/);
        return true;
      });
    await client.logout();
  });

  test("a sign-up whose email is not the one the code was sent to is refused naming userEmail", async () => {
    const client = new TurnkeyClient({
      apiBaseUrl: baseUrl, authProxyUrl, authProxyConfigId: await signUpConfig(), organizationId,
    });
    await client.init();
    const email = `${unique("core-signup")}@example.com`;
    const { verificationToken } = await verifiedToken(client, email);
    await assert.rejects(client.signUpWithOtp({ verificationToken, contact: `other-${email}`,
      otpType: OtpType.Email }), (error) => {
      assert.equal(error.name, "TurnkeyError");
      assert.match(String(error.cause?.message), /userEmail is not the contact the verification token proves/);
      return true;
    });
  });
  test("an existing user signs in: a second code → otp_verify_v2 → proxyGetAccount (EMAIL with the token) finds "
    + "the sub-organization → loginWithOtp (stamp_login) → the same wallet signs", async () => {
    const client = new TurnkeyClient({
      apiBaseUrl: baseUrl, authProxyUrl, authProxyConfigId: await signUpConfig(), organizationId,
    });
    await client.init();
    const email = `${unique("core-signin")}@example.com`;
    const walletName = unique("core-signin-wallet");
    const signUp = await verifiedToken(client, email);
    await client.signUpWithOtp({
      verificationToken: signUp.verificationToken, contact: email, otpType: OtpType.Email,
      createSubOrgParams: { customWallet: { walletName, walletAccounts: [ethereumAccount] } },
    });
    const signedUp = await client.getSession();
    const addressAtSignUp = (await signsWithWallet(client, walletName, "signed up")).address;
    await client.logout();
    assert.equal(await client.getSession(), undefined, "logged out");

    const { verificationToken, publicKey } = await verifiedToken(client, email, { round: 2 });
    assert.notEqual(publicKey, signUp.publicKey, "the second round proves a new key");
    const account = await client.httpClient.proxyGetAccount({ filterType: "EMAIL", filterValue: email,
      verificationToken });
    assert.deepEqual(account, { organizationId: signedUp.organizationId });
    const { sessionToken } = await client.loginWithOtp({ verificationToken, organizationId: account.organizationId });

    const session = await client.getSession();
    assert.equal(session.token, sessionToken);
    assert.equal(session.organizationId, signedUp.organizationId);
    assert.equal(session.userId, signedUp.userId, "the same user as at sign-up");
    assert.equal(session.publicKey, publicKey, "the second verification token's key is the session's key");
    assert.equal((await client.fetchUser()).userEmail, email);
    const signedIn = await signsWithWallet(client, walletName, "signed in with Keyhaven");
    assert.equal(signedIn.address, addressAtSignUp);
    // The token's key now holds this session: a second stamp_login with the same token is refused, it would
    // register the same key twice.
    await assert.rejects(client.loginWithOtp({ verificationToken, organizationId: account.organizationId }),
      (error) => {
        assert.equal(error.name, "TurnkeyError");
        assert.match(String(error.cause?.message), /public key \w+ is already registered in this organization/);
        return true;
      });
    await client.logout();
  });
});
