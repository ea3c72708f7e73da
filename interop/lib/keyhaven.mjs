// Shared set-up for the interop tests: where the server is, the root key pair, fresh key pairs, and assertions on
// the wire shapes the official clients declare. Nothing here talks to the server except through the official clients,
// apart from rawPost(), which exists to look at HTTP headers the clients hide.
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { Turnkey } from "@turnkey/sdk-server";

function required(name) {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set: run these tests through NpmInteropIT, or set KEYHAVEN_URL, `
      + "KEYHAVEN_ORGANIZATION_ID, KEYHAVEN_API_KEY_PREFIX, KEYHAVEN_AUTH_PROXY_URL and "
      + "KEYHAVEN_AUTH_PROXY_CONFIG_ID for a running server");
  }
  return value;
}

export const baseUrl = required("KEYHAVEN_URL").replace(/\/+$/, "");
export const organizationId = required("KEYHAVEN_ORGANIZATION_ID");
const keyPrefix = required("KEYHAVEN_API_KEY_PREFIX");

/** How the server under test renders activity timestamps; the server reads the same variable (default "string"). */
/** The auth proxy of the server under test, and its configuration id (NpmInteropIT always sets both). */
export const authProxyUrl = required("KEYHAVEN_AUTH_PROXY_URL").replace(/\/+$/, "");
export const authProxyConfigId = required("KEYHAVEN_AUTH_PROXY_CONFIG_ID");

export const activityTimestamps = (process.env.KEYHAVEN_ACTIVITY_TIMESTAMPS || "string").toLowerCase();

/** The root user's P-256 API key pair, as `serve` wrote it: PREFIX.public and PREFIX.private, hex. */
export const rootKey = {
  publicKey: fs.readFileSync(`${keyPrefix}.public`, "ascii").trim(),
  privateKey: fs.readFileSync(`${keyPrefix}.private`, "ascii").trim(),
};

/** A fresh P-256 API key pair in Turnkey's encoding: compressed public key and 32-byte private scalar, hex. */
export function newKeyPair() {
  const ecdh = crypto.createECDH("prime256v1");
  ecdh.generateKeys();
  return {
    publicKey: ecdh.getPublicKey("hex", "compressed"),
    privateKey: ecdh.getPrivateKey("hex").padStart(64, "0"),
  };
}

/** The compressed public key of a hex P-256 private key. */
export function publicKeyOf(privateKeyHex) {
  const ecdh = crypto.createECDH("prime256v1");
  ecdh.setPrivateKey(Buffer.from(privateKeyHex, "hex"));
  return ecdh.getPublicKey("hex", "compressed");
}

export function stamperFor(key) {
  return new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey });
}

/** `@turnkey/sdk-server`'s `apiClient()` for `key` (the root key unless told), with `orgId` as its default. */
export function sdkClientFor(key = rootKey, orgId = organizationId) {
  return new Turnkey({
    apiBaseUrl: baseUrl, apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey, defaultOrganizationId: orgId,
  }).apiClient();
}

/** A name no earlier run or concurrent test file uses. */
export function unique(prefix) {
  return `${prefix}-${crypto.randomUUID().slice(0, 8)}`;
}

export function apiKeyParams(name, key) {
  return { apiKeyName: name, publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" };
}

/** Verifies a stamp the server recorded in a vote: DER ECDSA P-256 over SHA-256 of the exact request body. */
export function verifyVoteSignature(vote) {
  const point = crypto.ECDH.convertKey(vote.publicKey, "prime256v1", "hex", "hex", "uncompressed");
  const publicKey = crypto.createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: Buffer.from(point.slice(2, 66), "hex").toString("base64url"),
      y: Buffer.from(point.slice(66), "hex").toString("base64url"),
    },
    format: "jwk",
  });
  return crypto.verify("sha256", Buffer.from(vote.message, "utf8"), publicKey, Buffer.from(vote.signature, "hex"));
}

/** `{seconds, nanos}` with both members decimal strings (`externaldatav1Timestamp`). */
export function assertTimestampObject(value, what) {
  assert.equal(typeof value, "object", `${what} is a timestamp object`);
  assert.match(value.seconds, /^\d+$/, `${what}.seconds is a decimal string`);
  assert.match(value.nanos, /^\d+$/, `${what}.nanos is a decimal string`);
  const seconds = Number(value.seconds);
  assert.ok(Math.abs(seconds - Date.now() / 1000) < 24 * 3600, `${what} is about now`);
}

/** An activity timestamp in the form the server is configured for. */
export function assertActivityTimestamp(value, what) {
  if (activityTimestamps === "object") {
    assertTimestampObject(value, what);
  } else {
    assert.equal(typeof value, "string", `${what} is a string`);
    assert.ok(Math.abs(Date.parse(value) - Date.now()) < 24 * 3600 * 1000, `${what} (${value}) is about now`);
  }
}

/**
 * The members of `v1Activity` the official clients read, for a completed activity of `type` in `orgId` whose
 * result is under `resultKey`. Returns that result.
 */
export function assertCompleted(activity, { type, orgId = organizationId, resultKey, intentKey }) {
  assert.equal(activity.status, "ACTIVITY_STATUS_COMPLETED",
    `activity ${activity.id} completed (failure: ${JSON.stringify(activity.failure)})`);
  assert.equal(activity.type, type);
  assert.equal(activity.organizationId, orgId);
  assert.equal(typeof activity.id, "string");
  assert.ok(activity.id.length > 0);
  assert.equal(typeof activity.fingerprint, "string");
  assert.ok(activity.fingerprint.length > 0);
  assert.equal(activity.canApprove, false);
  assert.equal(activity.canReject, false);
  assert.equal(activity.failure, undefined);
  assert.ok(activity.intent[intentKey], `intent carries ${intentKey}: ${JSON.stringify(activity.intent)}`);
  assert.deepEqual(Object.keys(activity.intent), [intentKey]);
  assert.ok(Array.isArray(activity.votes) && activity.votes.length === 1, "one vote: the submitter's");
  const vote = activity.votes[0];
  assert.equal(vote.selection, "VOTE_SELECTION_APPROVED");
  assert.equal(vote.activityId, activity.id);
  assert.equal(vote.scheme, "SIGNATURE_SCHEME_TK_API_P256");
  assert.equal(vote.user.userId, vote.userId);
  assert.ok(verifyVoteSignature(vote), "the vote carries the submitter's verifiable stamp");
  assert.equal(JSON.parse(vote.message).type, type, "the vote's message is the signed request body");
  assertActivityTimestamp(activity.createdAt, "activity.createdAt");
  assertActivityTimestamp(activity.updatedAt, "activity.updatedAt");
  assert.deepEqual(Object.keys(activity.result), [resultKey]);
  return activity.result[resultKey];
}

/** The `v1User` members the clients declare as required. */
export function assertUserShape(user) {
  for (const member of ["userId", "userName"]) {
    assert.equal(typeof user[member], "string", `user.${member}`);
  }
  for (const member of ["authenticators", "apiKeys", "userTags", "oauthProviders", "mfaPolicies"]) {
    assert.ok(Array.isArray(user[member]), `user.${member} is an array`);
  }
  assertTimestampObject(user.createdAt, "user.createdAt");
  assertTimestampObject(user.updatedAt, "user.updatedAt");
  for (const apiKey of user.apiKeys) {
    assertApiKeyShape(apiKey);
  }
}

export function assertApiKeyShape(apiKey) {
  assert.equal(typeof apiKey.apiKeyId, "string");
  assert.equal(typeof apiKey.apiKeyName, "string");
  assert.equal(typeof apiKey.credential.publicKey, "string");
  assert.equal(apiKey.credential.type, "CREDENTIAL_TYPE_API_KEY_P256");
  assertTimestampObject(apiKey.createdAt, "apiKey.createdAt");
  assertTimestampObject(apiKey.updatedAt, "apiKey.updatedAt");
}

export function assertTagShape(tag) {
  assertTagShapeOfType(tag, "TAG_TYPE_USER");
}

export function assertPrivateKeyTagShape(tag) {
  assertTagShapeOfType(tag, "TAG_TYPE_PRIVATE_KEY");
}

function assertTagShapeOfType(tag, tagType) {
  assert.equal(typeof tag.tagId, "string");
  assert.equal(typeof tag.tagName, "string");
  assert.equal(tag.tagType, tagType);
  assertTimestampObject(tag.createdAt, "tag.createdAt");
  assertTimestampObject(tag.updatedAt, "tag.updatedAt");
}

/** `v1Wallet`: every member the clients declare as required. */
export function assertWalletShape(wallet) {
  assert.equal(typeof wallet.walletId, "string");
  assert.equal(typeof wallet.walletName, "string");
  assert.equal(typeof wallet.exported, "boolean", "wallet.exported");
  assert.equal(typeof wallet.imported, "boolean", "wallet.imported");
  assertTimestampObject(wallet.createdAt, "wallet.createdAt");
  assertTimestampObject(wallet.updatedAt, "wallet.updatedAt");
}

/** `v1WalletAccount`: every member the clients declare as required; `walletDetails` only when asked for. */
export function assertWalletAccountShape(account, { walletDetails = false } = {}) {
  for (const member of ["walletAccountId", "organizationId", "walletId", "curve", "pathFormat", "path",
    "addressFormat", "address", "publicKey"]) {
    assert.equal(typeof account[member], "string", `account.${member}`);
  }
  assert.equal(account.pathFormat, "PATH_FORMAT_BIP32");
  assertTimestampObject(account.createdAt, "account.createdAt");
  assertTimestampObject(account.updatedAt, "account.updatedAt");
  if (walletDetails) {
    assertWalletShape(account.walletDetails);
    assert.equal(account.walletDetails.walletId, account.walletId);
  } else {
    assert.equal(account.walletDetails, undefined, "no walletDetails unless includeWalletDetails");
  }
}

/** `v1PrivateKey`: every member the clients declare as required. */
export function assertPrivateKeyShape(privateKey) {
  for (const member of ["privateKeyId", "publicKey", "privateKeyName", "curve"]) {
    assert.equal(typeof privateKey[member], "string", `privateKey.${member}`);
  }
  assert.ok(Array.isArray(privateKey.addresses), "privateKey.addresses is an array");
  for (const address of privateKey.addresses) {
    assert.equal(typeof address.format, "string");
    assert.equal(typeof address.address, "string");
  }
  assert.ok(Array.isArray(privateKey.privateKeyTags), "privateKey.privateKeyTags is an array");
  assert.equal(typeof privateKey.exported, "boolean", "privateKey.exported");
  assert.equal(typeof privateKey.imported, "boolean", "privateKey.imported");
  assertTimestampObject(privateKey.createdAt, "privateKey.createdAt");
  assertTimestampObject(privateKey.updatedAt, "privateKey.updatedAt");
}

/**
 * Awaits `promise` and checks it was rejected with the clients' `TurnkeyRequestError` carrying gRPC `code` and, in
 * its details, `turnkeyErrorCode` (when given). Each client bundles its own copy of the class (`@turnkey/http`,
 * `@turnkey/sdk-types`), so the check goes by name rather than `instanceof`.
 */
export async function assertRequestError(promise, { code, turnkeyErrorCode, message }) {
  await assert.rejects(promise, (error) => {
    assert.equal(error.name, "TurnkeyRequestError", `expected a TurnkeyRequestError, got ${error.stack}`);
    assert.equal(error.code, code, error.message);
    assert.ok(Array.isArray(error.details), "details is an array");
    if (turnkeyErrorCode) {
      assert.ok(error.details.some((d) => d.turnkeyErrorCode === turnkeyErrorCode),
        `details name ${turnkeyErrorCode}: ${JSON.stringify(error.details)}`);
    }
    assert.match(error.message, /^Turnkey error \d+: /);
    if (message) {
      assert.match(error.message, message);
    }
    return true;
  });
}

/** POSTs `body` stamped by `key` without a client, for what the clients do not expose (headers, status). */
export async function rawPost(path, body, key = rootKey) {
  const text = JSON.stringify(body);
  const stamp = await stamperFor(key).stamp(text);
  return fetch(baseUrl + path, {
    method: "POST",
    headers: { "Content-Type": "application/json", [stamp.stampHeaderName]: stamp.stampHeaderValue },
    body: text,
  });
}

/**
 * A sub-organization of its own for policy tests, so that its policies touch no other test file. Its root user
 * writes the policies with `admin` (sdk-server); `member` is a second user outside the root quorum, whom policies
 * govern, with its own API key and sdk-server client. The wallet holds `accounts`; `addresses` lists theirs in order.
 */
export async function policySandbox(name, accounts) {
  const adminKey = newKeyPair();
  const created = await sdkClientFor().createSubOrganization({
    subOrganizationName: unique(name),
    rootUsers: [{
      userName: unique(`${name}-admin`), apiKeys: [apiKeyParams("admin key", adminKey)], authenticators: [],
      oauthProviders: [],
    }],
    rootQuorumThreshold: 1,
    wallet: { walletName: "treasury", accounts },
  });
  const orgId = created.subOrganizationId;
  const admin = sdkClientFor(adminKey, orgId);
  const member = { key: newKeyPair() };
  const { userIds } = await admin.createUsers({
    users: [{
      userName: unique(`${name}-member`), apiKeys: [apiKeyParams("member key", member.key)], authenticators: [],
      oauthProviders: [], userTags: [],
    }],
  });
  member.id = userIds[0];
  member.sdk = sdkClientFor(member.key, orgId);
  return { orgId, admin, member, addresses: created.wallet.addresses };
}

/**
 * An ID token of the one OIDC issuer the interop server trusts (NpmInteropIT's TestOidcIssuer: a P-256 key made for
 * the run, whose JWKS the server was started with), signed ES256 with node's crypto. `nonce` binds a sign-in to its
 * key (oauth_login, oauth: the SHA-256 hex of the public key as sent); adding a provider needs none.
 */
export function oidcToken({ sub, nonce, lifetimeSeconds = 300 }) {
  const { issuer, audience, jwk } = JSON.parse(fs.readFileSync(required("KEYHAVEN_TEST_OIDC_ISSUER"), "utf8"));
  const now = Math.floor(Date.now() / 1000);
  const encode = (value) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const signingInput = `${encode({ alg: "ES256", typ: "JWT", kid: jwk.kid })}.${encode({ iss: issuer, aud: audience,
    sub, iat: now, exp: now + lifetimeSeconds, ...(nonce && { nonce }) })}`;
  const signature = crypto.sign("sha256", Buffer.from(signingInput), { key: crypto.createPrivateKey({ key: jwk,
    format: "jwk" }), dsaEncoding: "ieee-p1363" });
  return { token: `${signingInput}.${signature.toString("base64url")}`, issuer, audience };
}

/** The nonce an OIDC sign-in for `publicKey` carries: the SHA-256 hex of the key's hex as sent. */
export function sessionNonce(publicKey) {
  return crypto.createHash("sha256").update(publicKey, "utf8").digest("hex");
}
