// How the official clients surface Keyhaven's errors and failed activities, and the HTTP details they depend on
// (status codes, Content-Type, the error body) looked at directly.
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { before, describe, test } from "node:test";
import { TurnkeyClient, createActivityPoller } from "@turnkey/http";
import { Turnkey } from "@turnkey/sdk-server";
import {
  apiKeyParams,
  assertRequestError,
  baseUrl,
  newKeyPair,
  organizationId,
  publicKeyOf,
  rawPost,
  rootKey,
  stamperFor,
  unique,
} from "../lib/keyhaven.mjs";

const httpClientFor = (key) => new TurnkeyClient({ baseUrl }, stamperFor(key));
const sdkClientFor = (key, orgId = organizationId) => new Turnkey({
  apiBaseUrl: baseUrl, apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey, defaultOrganizationId: orgId,
}).apiClient();

const root = httpClientFor(rootKey);
const unknownOrganizationId = crypto.randomUUID();
const stranger = newKeyPair();
/** The root user's public key with somebody else's private key: the stamp names a known key but does not verify. */
const forger = { publicKey: rootKey.publicKey, privateKey: newKeyPair().privateKey };

const createUsersBody = (orgId, userName = unique("user")) => ({
  type: "ACTIVITY_TYPE_CREATE_USERS_V4",
  timestampMs: String(Date.now()),
  organizationId: orgId,
  parameters: {
    users: [{
      userName, apiKeys: [apiKeyParams("k", newKeyPair())], authenticators: [], oauthProviders: [], userTags: [],
    }],
  },
});

describe("errors and wire details", () => {
  /** A user without any permission in the root organization. */
  const member = { key: newKeyPair() };

  before(async () => {
    const response = await root.createUsers({
      ...createUsersBody(organizationId),
      parameters: {
        users: [{
          userName: unique("member"), apiKeys: [apiKeyParams("member key", member.key)], authenticators: [],
          oauthProviders: [], userTags: [],
        }],
      },
    });
    assert.equal(response.activity.status, "ACTIVITY_STATUS_COMPLETED");
    member.userId = response.activity.result.createUsersResult.userIds[0];
  });

  test("the root key files hold a matching P-256 pair", () => {
    assert.match(rootKey.publicKey, /^0[23][0-9a-f]{64}$/);
    assert.match(rootKey.privateKey, /^[0-9a-f]{64}$/);
    assert.equal(publicKeyOf(rootKey.privateKey), rootKey.publicKey);
  });

  test("responses are exactly Content-Type: application/json, successes and errors alike", async () => {
    const query = await rawPost("/public/v1/query/whoami", { organizationId });
    assert.equal(query.status, 200);
    assert.equal(query.headers.get("content-type"), "application/json");
    assert.equal((await query.json()).organizationId, organizationId);

    const submit = await rawPost("/public/v1/submit/create_users", createUsersBody(organizationId));
    assert.equal(submit.status, 200);
    assert.equal(submit.headers.get("content-type"), "application/json");
    assert.equal((await submit.json()).activity.status, "ACTIVITY_STATUS_COMPLETED");

    const unknownKey = await rawPost("/public/v1/query/whoami", { organizationId }, stranger);
    assert.equal(unknownKey.status, 401);
    assert.equal(unknownKey.headers.get("content-type"), "application/json");
    const body = await unknownKey.json();
    assert.equal(body.code, 16);
    assert.equal(typeof body.message, "string");
    assert.equal(body.turnkeyErrorCode, "PUBLIC_KEY_NOT_FOUND");
    assert.deepEqual(body.details[0], {
      "@type": "type.googleapis.com/errors.v1.TurnkeyErrorDetail", turnkeyErrorCode: "PUBLIC_KEY_NOT_FOUND",
    });

    const unknownOrg = await rawPost("/public/v1/query/whoami", { organizationId: unknownOrganizationId });
    assert.equal(unknownOrg.status, 404);
    assert.equal(unknownOrg.headers.get("content-type"), "application/json");
    assert.equal((await unknownOrg.json()).turnkeyErrorCode, "ORGANIZATION_NOT_FOUND");
  });

  test("a base URL with a trailing slash works: both clients concatenate it with the path", async () => {
    const http = new TurnkeyClient({ baseUrl: `${baseUrl}/` }, stamperFor(rootKey));
    assert.equal((await http.getWhoami({ organizationId })).organizationId, organizationId);
    const sdk = new Turnkey({
      apiBaseUrl: `${baseUrl}/`, apiPublicKey: rootKey.publicKey, apiPrivateKey: rootKey.privateKey,
      defaultOrganizationId: organizationId,
    }).apiClient();
    assert.equal((await sdk.getWhoami()).organizationId, organizationId);
  });

  test("an unknown organization id is TurnkeyRequestError 5 (ORGANIZATION_NOT_FOUND) in both clients", async () => {
    const expected = { code: 5, turnkeyErrorCode: "ORGANIZATION_NOT_FOUND" };
    await assertRequestError(root.getWhoami({ organizationId: unknownOrganizationId }), expected);
    await assertRequestError(root.createUsers(createUsersBody(unknownOrganizationId)), expected);
    await assertRequestError(sdkClientFor(rootKey, unknownOrganizationId).getWhoami(), expected);
    await assertRequestError(sdkClientFor(rootKey).getUsers({ organizationId: unknownOrganizationId }), expected);
  });

  test("a malformed organization id is TurnkeyRequestError 3 (INVALID_ORGANIZATION_ID)", async () => {
    const expected = { code: 3, turnkeyErrorCode: "INVALID_ORGANIZATION_ID" };
    await assertRequestError(root.getWhoami({ organizationId: "not-an-organization" }), expected);
    await assertRequestError(sdkClientFor(rootKey, "not-an-organization").getWhoami(), expected);
  });

  test("an unknown API key is TurnkeyRequestError 16 (PUBLIC_KEY_NOT_FOUND) in both clients", async () => {
    const expected = { code: 16, turnkeyErrorCode: "PUBLIC_KEY_NOT_FOUND" };
    await assertRequestError(httpClientFor(stranger).getWhoami({ organizationId }), expected);
    await assertRequestError(httpClientFor(stranger).createUsers(createUsersBody(organizationId)), expected);
    await assertRequestError(sdkClientFor(stranger).getWhoami(), expected);
    await assertRequestError(sdkClientFor(stranger).createUsers(createUsersBody(organizationId).parameters),
      expected);
  });

  test("a stamp that does not verify is TurnkeyRequestError 16 (SIGNATURE_INVALID)", async () => {
    const expected = { code: 16, turnkeyErrorCode: "SIGNATURE_INVALID" };
    await assertRequestError(httpClientFor(forger).getWhoami({ organizationId }), expected);
    await assertRequestError(sdkClientFor(forger).createUsers(createUsersBody(organizationId).parameters), expected);
  });

  test("a stale timestampMs is TurnkeyRequestError 3 (INVALID_TIME)", async () => {
    const stale = { ...createUsersBody(organizationId), timestampMs: String(Date.now() - 2 * 3600 * 1000) };
    await assertRequestError(root.createUsers(stale), { code: 3, turnkeyErrorCode: "INVALID_TIME" });
    const { timestampMs, ...rest } = stale;
    await assertRequestError(sdkClientFor(rootKey).createUsers({ ...rest.parameters, timestampMs }),
      { code: 3, turnkeyErrorCode: "INVALID_TIME" });
  });

  test("an activity type that does not match the path is TurnkeyRequestError 3 (REQUEST_INVALID)", async () => {
    const mismatched = { ...createUsersBody(organizationId), type: "ACTIVITY_TYPE_DELETE_USERS" };
    await assertRequestError(root.createUsers(mismatched),
      { code: 3, turnkeyErrorCode: "REQUEST_INVALID", message: /type/ });
  });

  test("deleting a root quorum member is TurnkeyRequestError 3 (quorum users missing), recorded as FAILED",
    async () => {
      const { userId } = await root.getWhoami({ organizationId });
      const body = {
        type: "ACTIVITY_TYPE_DELETE_USERS", timestampMs: String(Date.now()), organizationId,
        parameters: { userIds: [userId] },
      };
      await assertRequestError(root.deleteUsers(body),
        { code: 3, turnkeyErrorCode: "REQUEST_INVALID", message: /quorum users missing/ });
      const { activities } = await root.getActivities({
        organizationId, filterByType: ["ACTIVITY_TYPE_DELETE_USERS"], filterByStatus: ["ACTIVITY_STATUS_FAILED"],
      });
      const failed = activities.find((a) => a.intent.deleteUsersIntent.userIds[0] === userId);
      assert.ok(failed, "the failed activity is listed");
      assert.match(failed.failure.message, /quorum users missing/);
      assert.deepEqual(failed.result, {});
      assert.deepEqual((await root.getUser({ organizationId, userId })).user.userId, userId);
    });

  test("a denied activity is HTTP 200 with a FAILED activity; the http poller turns it into TurnkeyActivityError",
    async () => {
      const raw = await rawPost("/public/v1/submit/create_users", createUsersBody(organizationId), member.key);
      assert.equal(raw.status, 200);
      assert.equal(raw.headers.get("content-type"), "application/json");
      const { activity } = await raw.json();
      assert.equal(activity.status, "ACTIVITY_STATUS_FAILED");
      assert.equal(activity.votes[0].userId, member.userId);

      const memberClient = httpClientFor(member.key);
      const poll = createActivityPoller({ client: memberClient, requestFn: memberClient.createUsers });
      await assert.rejects(poll(createUsersBody(organizationId)), (error) => {
        assert.equal(error.name, "TurnkeyActivityError");
        assert.equal(error.activityStatus, "ACTIVITY_STATUS_FAILED");
        assert.equal(error.activityType, "ACTIVITY_TYPE_CREATE_USERS_V4");
        assert.equal(typeof error.activityId, "string");
        return true;
      });

      const rootPoll = createActivityPoller({ client: root, requestFn: root.createUsers });
      const completed = await rootPoll(createUsersBody(organizationId));
      assert.equal(completed.status, "ACTIVITY_STATUS_COMPLETED");
      assert.equal(completed.result.createUsersResult.userIds.length, 1);
    });

  test("a request stamped with stampCreateUsers and forwarded twice makes one activity", async () => {
    const signed = await root.stampCreateUsers(createUsersBody(organizationId));
    assert.equal(signed.url, `${baseUrl}/public/v1/submit/create_users`);
    const forward = () => fetch(signed.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", [signed.stamp.stampHeaderName]: signed.stamp.stampHeaderValue },
      body: signed.body,
    }).then(async (r) => {
      assert.equal(r.status, 200);
      return (await r.json()).activity;
    });
    const first = await forward();
    const second = await forward();
    assert.equal(first.status, "ACTIVITY_STATUS_COMPLETED");
    assert.equal(second.id, first.id);
    assert.equal(second.fingerprint, first.fingerprint);
    assert.deepEqual(second.result, first.result);
  });
});
