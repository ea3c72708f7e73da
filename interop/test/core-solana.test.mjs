// @turnkey/core 2.8.1's TurnkeyClient, driven as a web app drives it, signing Solana transactions with Keyhaven:
// new TurnkeyClient({apiBaseUrl, …}), init(), a login that stores a session, fetchWallets / createWallet, and
// signTransaction({walletAccount, unsignedTransaction, transactionType: "TRANSACTION_TYPE_SOLANA"}), which submits
// ACTIVITY_TYPE_SIGN_TRANSACTION_V2 to /public/v1/submit/sign_transaction with {signWith: the account's address,
// unsignedTransaction, type} and returns signTransactionResult.signedTransaction. Every signature is checked with
// @solana/web3.js and @noble/curves.
//
// Core expects a browser: lib/browser-globals.mjs gives it window, localStorage and fake-indexeddb's IndexedDB, and
// node's WebCrypto does the rest; its key pairs are WebCrypto keys it generates itself (non-extractable). Two logins:
// - an API key: core has no API-key login method, so the test does what its loginWithPasskey does with a passkey,
//   with the API-key stamper instead (its documented overrideApiKeyStamper): the user's key, created by
//   createApiKeyPair and registered by the app's backend as the root user of a sub-organization, stamps stamp_login
//   for a second key pair, and storeSession keeps the session;
// - an emailed one-time code: initOtp and loginWithOtp (an attested stamp bearing the verification token, then
//   stamp_login). Core's verifyOtp cannot be used against any server but Turnkey's: it calls
//   encryptOtpCodeToBundle(otpCode, otpEncryptionTargetBundle, publicKey) with no signer key, so @turnkey/crypto
//   checks the bundle against Turnkey's production signer and refuses Keyhaven's (the test pins that refusal). The
//   test does verifyOtp's two steps itself, with the same @turnkey/crypto call given Keyhaven's published OTP signer
//   and core's own httpClient.proxyVerifyOtpV2.
import "../lib/browser-globals.mjs";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { describe, test } from "node:test";
import { OtpType, StamperType, TurnkeyClient } from "@turnkey/core";
import { encryptOtpCodeToBundle, PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY } from "@turnkey/crypto";
import { Keypair, PublicKey, SystemProgram, Transaction } from "@solana/web3.js";
import { ed25519 } from "@noble/curves/ed25519";
import bs58 from "bs58";
import { authProxyConfigId, authProxyUrl, baseUrl, organizationId, sdkClientFor, unique } from "../lib/keyhaven.mjs";
import { emailedCode } from "../lib/maildir.mjs";

const proxyUrl = authProxyUrl;
const proxyConfigId = authProxyConfigId;
const sdk = sdkClientFor();

/** A fixed 32-byte value as the recent blockhash: signing needs none from a cluster. */
const recentBlockhash = bs58.encode(crypto.createHash("sha256").update("keyhaven core blockhash").digest());
const keypairOf = (label) => Keypair.fromSeed(crypto.createHash("sha256").update(label).digest());
const recipient = keypairOf("core recipient").publicKey;
const feePayer = keypairOf("core fee payer");

const solanaAccount = {
  curve: "CURVE_ED25519", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/501'/0'/0'",
  addressFormat: "ADDRESS_FORMAT_SOLANA",
};

/** A legacy transfer from `from`, paid by `payer` (a Keypair that signs first) or by `from` itself. */
function transfer(from, lamports, payer) {
  const tx = new Transaction({ feePayer: payer ? payer.publicKey : new PublicKey(from), recentBlockhash })
    .add(SystemProgram.transfer({ fromPubkey: new PublicKey(from), toPubkey: recipient, lamports }));
  if (payer) {
    tx.partialSign(payer);
  }
  return tx;
}

/** The one Solana account of the session user's wallet named `walletName`, as core's fetchWallets gives it. */
async function solanaAccountOf(client, walletName) {
  const wallets = await client.fetchWallets();
  const wallet = wallets.find((w) => w.walletName === walletName);
  assert.ok(wallet, `fetchWallets lists ${walletName}: ${JSON.stringify(wallets.map((w) => w.walletName))}`);
  assert.equal(wallet.source, "embedded");
  assert.equal(wallet.accounts.length, 1);
  const [account] = wallet.accounts;
  assert.equal(account.addressFormat, "ADDRESS_FORMAT_SOLANA");
  assert.equal(account.path, "m/44'/501'/0'/0'");
  assert.equal(account.address, bs58.encode(Buffer.from(account.publicKey, "hex")), "the address is the key");
  return account;
}

/**
 * Signs `tx` through core and checks the result with web3.js: the message unchanged, the account's signature in
 * the account's slot (verified), every other slot as it was. Returns the signed transaction.
 */
async function signAndCheck(client, account, tx) {
  const unsignedTransaction = tx.serialize({ requireAllSignatures: false }).toString("hex");
  const message = tx.serializeMessage();
  const slot = tx.signatures.findIndex((s) => s.publicKey.toBase58() === account.address);
  assert.ok(slot >= 0, "the account is a required signer");

  const signedHex = await client.signTransaction({
    walletAccount: account, unsignedTransaction, transactionType: "TRANSACTION_TYPE_SOLANA",
  });

  assert.match(signedHex, /^[0-9a-f]+$/, "the signed transaction comes back as hex");
  const signed = Transaction.from(Buffer.from(signedHex, "hex"));
  assert.deepEqual(signed.serializeMessage(), message, "the message comes back unchanged");
  assert.deepEqual(signed.signatures.map((s) => s.publicKey.toBase58()), tx.signatures.map((s) => s.publicKey
    .toBase58()));
  signed.signatures.forEach((s, i) => {
    if (i !== slot) {
      assert.deepEqual(s.signature, tx.signatures[i].signature, `slot ${i} is untouched`);
    }
  });
  assert.ok(ed25519.verify(signed.signatures[slot].signature, message, new PublicKey(account.address).toBytes()),
    "the account's Ed25519 signature of the message is in its slot");
  assert.ok(signed.verifySignatures(), "web3.js verifies every signature");

  // What core submitted, as the server recorded it.
  const { activities } = await client.httpClient.getActivities({
    filterByType: ["ACTIVITY_TYPE_SIGN_TRANSACTION_V2"], paginationOptions: { limit: "1" },
  });
  assert.equal(activities.length, 1);
  assert.equal(activities[0].status, "ACTIVITY_STATUS_COMPLETED");
  assert.deepEqual(activities[0].intent.signTransactionIntentV2, {
    signWith: account.address, unsignedTransaction, type: "TRANSACTION_TYPE_SOLANA",
  });
  assert.equal(activities[0].result.signTransactionResult.signedTransaction, signedHex);
  return signed;
}

describe("@turnkey/core signTransaction for a Solana account", () => {
  test("an API key in IndexedDB logs in with stamp_login; under the session createWallet, fetchWallets and "
    + "signTransaction of a legacy transfer the account pays for", async () => {
    const client = new TurnkeyClient({ apiBaseUrl: baseUrl, organizationId });
    await client.init();
    const userKey = await client.createApiKeyPair();
    assert.match(userKey, /^0[23][0-9a-f]{64}$/, "a compressed P-256 key generated by WebCrypto");
    const created = await sdk.createSubOrganization({
      subOrganizationName: unique("core-api-key"),
      rootUsers: [{
        userName: unique("core-user"), authenticators: [], oauthProviders: [],
        apiKeys: [{ apiKeyName: "browser key", publicKey: userKey, curveType: "API_KEY_CURVE_P256" }],
      }],
      rootQuorumThreshold: 1,
    });
    const subOrganizationId = created.subOrganizationId;

    const sessionKey = await client.createApiKeyPair();
    await client.overrideApiKeyStamper({ temporaryPublicKey: userKey });
    const login = { publicKey: sessionKey, organizationId: subOrganizationId };
    const { session } = await client.httpClient.stampLogin(login, StamperType.ApiKey);
    await client.overrideApiKeyStamper({ temporaryPublicKey: "" });
    await client.storeSession({ sessionToken: session });
    const stored = await client.getSession();
    assert.equal(stored.organizationId, subOrganizationId);
    assert.equal(stored.userId, created.rootUserIds[0]);
    assert.equal(stored.publicKey, sessionKey, "requests are stamped with the session's key from now on");

    const walletName = unique("core-wallet");
    const walletId = await client.createWallet({ walletName, accounts: [solanaAccount] });
    assert.equal(typeof walletId, "string");
    const account = await solanaAccountOf(client, walletName);
    assert.equal(account.walletId, walletId);
    assert.equal(account.organizationId, subOrganizationId);

    const signed = await signAndCheck(client, account, transfer(account.address, 5000));
    assert.equal(signed.signatures.length, 1);

    await client.logout();
    const another = transfer(account.address, 1).serialize({ requireAllSignatures: false }).toString("hex");
    await assert.rejects(client.signTransaction({
      walletAccount: account, unsignedTransaction: another, transactionType: "TRANSACTION_TYPE_SOLANA",
    }), (error) => {
      assert.equal(error.name, "TurnkeyError");
      assert.match(String(error.cause?.message ?? error.message), /No active session/);
      return true;
    }, "after logout nothing stamps");
  });

  test("an emailed code: initOtp, loginWithOtp into the user's sub-organization, then signTransaction of a "
    + "transfer whose fee payer signed first",
  async () => {
    const client = new TurnkeyClient({
      apiBaseUrl: baseUrl, authProxyUrl: proxyUrl, authProxyConfigId: proxyConfigId, organizationId,
    });
    await client.init();
    const email = `${unique("core-otp")}@example.com`;
    const walletName = unique("core-otp-wallet");
    const created = await sdk.createSubOrganization({
      subOrganizationName: unique("core-otp"),
      rootUsers: [{
        userName: unique("core-otp-user"), userEmail: email, apiKeys: [], authenticators: [], oauthProviders: [],
      }],
      rootQuorumThreshold: 1,
      wallet: { walletName, accounts: [solanaAccount] },
    });

    const { otpId, otpEncryptionTargetBundle } = await client.initOtp({ otpType: OtpType.Email, contact: email });
    const otpCode = emailedCode(email);
    const otpSigner = (await (await fetch(`${baseUrl}/public/v1/discovery/otp-signer`)).json()).publicKey;
    await assert.rejects(client.verifyOtp({ otpId, otpCode, otpEncryptionTargetBundle }), (error) => {
      assert.equal(error.name, "TurnkeyError");
      assert.equal(error.cause?.message, `expected signer key ${PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY} does not `
        + `match signer key from bundle: ${otpSigner}`);
      return true;
    }, "core's verifyOtp trusts only Turnkey's production OTP signer, before sending anything");

    const publicKey = await client.createApiKeyPair();
    const encryptedOtpBundle = await encryptOtpCodeToBundle(otpCode, otpEncryptionTargetBundle, publicKey,
      otpSigner);
    const { verificationToken } = await client.httpClient.proxyVerifyOtpV2({ otpId, encryptedOtpBundle });
    const { sessionToken } = await client.loginWithOtp({
      verificationToken, organizationId: created.subOrganizationId,
    });
    const stored = await client.getSession();
    assert.equal(stored.token, sessionToken);
    assert.equal(stored.organizationId, created.subOrganizationId);
    assert.equal(stored.userId, created.rootUserIds[0]);
    assert.equal(stored.publicKey, publicKey, "the verification token's key is the session's key");

    const account = await solanaAccountOf(client, walletName);
    assert.deepEqual([account.address], created.wallet.addresses);
    const signed = await signAndCheck(client, account, transfer(account.address, 42, feePayer));
    assert.deepEqual(signed.signatures.map((s) => s.publicKey.toBase58()),
      [feePayer.publicKey.toBase58(), account.address], "the account signs the second slot, the payer's is kept");

    await client.logout();
  });
});
