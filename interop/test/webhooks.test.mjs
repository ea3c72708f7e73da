// Webhooks with the official packages: @turnkey/sdk-server manages the endpoint, and deliveries to a receiver on
// loopback are verified with @turnkey/crypto's verifyTurnkeyWebhookSignature, unchanged, against the keys of the
// server's JWKS. NpmInteropIT serves with --webhook-header-prefix Turnkey (so deliveries carry X-Turnkey-* headers
// and the JWKS turnkey_signature_* fields) and --webhook-allow-insecure-urls (the receiver is plain http on loopback).
import assert from "node:assert/strict";
import http from "node:http";
import { after, before, describe, test } from "node:test";
import { TurnkeyClient } from "@turnkey/http";
import { verifyTurnkeyWebhookSignature } from "@turnkey/crypto";
import { baseUrl, organizationId, rootKey, sdkClientFor, stamperFor, unique } from "../lib/keyhaven.mjs";

const JWKS_URL = `${baseUrl}/public/v1/discovery/webhooks/jwks`;

/** A receiver that keeps every request's headers and raw body, and answers 200. */
function startReceiver() {
  const received = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks), path: req.url });
      res.writeHead(200).end();
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, received })));
}

async function awaitDelivery(received, predicate) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = received.find(predicate);
    if (found) {
      return found;
    }
    assert.ok(Date.now() < deadline, "no matching webhook delivery within 20 s");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function verificationKeys() {
  const response = await fetch(JWKS_URL);
  assert.equal(response.status, 200);
  const jwks = await response.json();
  return jwks.keys.map((k) => ({ keyId: k.kid, publicKey: Buffer.from(k.x, "base64url").toString("hex"),
    algorithm: k.turnkey_signature_algorithm }));
}

describe("webhooks verified with @turnkey/crypto", () => {
  const sdk = sdkClientFor();
  let receiver;
  let url;

  before(async () => {
    receiver = await startReceiver();
    url = `http://127.0.0.1:${receiver.server.address().port}/turnkey-webhooks`;
  });

  after(() => receiver.server.close());

  test("the JWKS is public, cached for a day, and names the Turnkey fields", async () => {
    const response = await fetch(JWKS_URL);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("cache-control"),
      "public, max-age=86400, s-maxage=86400, stale-if-error=604800");
    const { keys } = await response.json();
    assert.ok(keys.length >= 1);
    for (const key of keys) {
      assert.equal(key.kty, "OKP");
      assert.equal(key.crv, "Ed25519");
      assert.equal(key.alg, "EdDSA");
      assert.equal(key.use, "sig");
      assert.equal(Buffer.from(key.x, "base64url").length, 32);
      assert.equal(key.turnkey_signature_algorithm, "ed25519");
      assert.equal(key.turnkey_signature_version, "v1");
    }
  });

  test("an endpoint made with sdk-server receives activity updates that verifyTurnkeyWebhookSignature accepts",
    async () => {
      const created = await sdk.createWebhookEndpoint({ url, name: unique("hook"),
        subscriptions: [{ eventType: "ACTIVITY_UPDATES" }] });
      assert.equal(created.activity.status, "ACTIVITY_STATUS_COMPLETED");
      assert.equal(typeof created.endpointId, "string");
      assert.deepEqual(created.webhookEndpoint, { endpointId: created.endpointId, organizationId, url,
        name: created.webhookEndpoint.name, isActive: true,
        subscriptions: [{ eventType: "ACTIVITY_UPDATES", isActive: true }] });
      const listed = await sdk.listWebhookEndpoints({});
      assert.ok(listed.webhookEndpoints.some((e) => e.endpointId === created.endpointId));

      const tag = await sdk.createUserTag({ userTagName: unique("tag"), userIds: [] });
      const delivery = await awaitDelivery(receiver.received,
        (r) => JSON.parse(r.body.toString("utf8")).id === tag.activity.id);
      assert.equal(delivery.headers["content-type"], "application/json");
      assert.equal(delivery.headers["x-turnkey-organization-id"], organizationId);
      assert.equal(delivery.headers["x-turnkey-event-type"], "ACTIVITY_UPDATES");
      assert.equal(delivery.headers["x-turnkey-webhook-version"], "1");
      const body = JSON.parse(delivery.body.toString("utf8"));
      assert.equal(body.status, "ACTIVITY_STATUS_COMPLETED");
      assert.equal(body.type, "ACTIVITY_TYPE_CREATE_USER_TAG");
      assert.equal(body.organizationId, organizationId);

      const keys = await verificationKeys();
      const verified = verifyTurnkeyWebhookSignature({ headers: delivery.headers, body: delivery.body,
        verificationKeys: keys, maxTimestampAgeMs: 5 * 60 * 1000 });
      assert.deepEqual(verified, { ok: true, eventId: delivery.headers["x-turnkey-event-id"],
        keyId: delivery.headers["x-turnkey-signature-key-id"],
        timestampMs: Number(delivery.headers["x-turnkey-timestamp"]) });

      const tampered = Buffer.from(delivery.body);
      tampered[tampered.length - 2] ^= 1;
      assert.deepEqual(verifyTurnkeyWebhookSignature({ headers: delivery.headers, body: tampered,
        verificationKeys: keys, maxTimestampAgeMs: 300_000 }), { ok: false, reason: "invalid_signature" });
      assert.equal(verifyTurnkeyWebhookSignature({ headers: { ...delivery.headers, "x-turnkey-event-id": "other" },
        body: delivery.body, verificationKeys: keys, maxTimestampAgeMs: 300_000 }).reason, "invalid_signature");
      assert.equal(verifyTurnkeyWebhookSignature({ headers: delivery.headers, body: delivery.body,
        verificationKeys: keys, maxTimestampAgeMs: 300_000,
        nowMs: Number(delivery.headers["x-turnkey-timestamp"]) + 300_001 }).reason, "stale_timestamp");
      assert.equal(verifyTurnkeyWebhookSignature({ headers: delivery.headers, body: delivery.body,
        verificationKeys: [], maxTimestampAgeMs: 300_000 }).reason, "missing_key");

      const updated = await sdk.updateWebhookEndpoint({ endpointId: created.endpointId, isActive: false });
      assert.equal(updated.webhookEndpoint.isActive, false);
      const client = new TurnkeyClient({ baseUrl }, stamperFor(rootKey));
      const deleted = await client.deleteWebhookEndpoint({ type: "ACTIVITY_TYPE_DELETE_WEBHOOK_ENDPOINT",
        timestampMs: String(Date.now()), organizationId, parameters: { endpointId: created.endpointId } });
      assert.equal(deleted.activity.result.deleteWebhookEndpointResult.endpointId, created.endpointId);
    });

  test("a non-https URL is refused the way the clients report errors", async () => {
    const client = new TurnkeyClient({ baseUrl }, stamperFor(rootKey));
    await assert.rejects(client.createWebhookEndpoint({ type: "ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT",
      timestampMs: String(Date.now()), organizationId, parameters: { url: "ftp://example.com/hook", name: "x" } }),
    (error) => /parameters\.url/.test(error.message));
  });
});
