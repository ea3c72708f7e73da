// @turnkey/http's TurnkeyClient with @turnkey/api-key-stamper's ApiKeyStamper, used exactly as Turnkey documents:
// the caller builds the whole request body (type, timestampMs, organizationId, parameters) and gets the raw response.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { TurnkeyClient } from "@turnkey/http";
import {
  apiKeyParams,
  assertApiKeyShape,
  assertCompleted,
  assertRequestError,
  assertTagShape,
  assertUserShape,
  baseUrl,
  newKeyPair,
  organizationId,
  rootKey,
  stamperFor,
  unique,
} from "../lib/keyhaven.mjs";

const clientFor = (key) => new TurnkeyClient({ baseUrl }, stamperFor(key));
const root = clientFor(rootKey);
const now = () => String(Date.now());

describe("@turnkey/http TurnkeyClient", () => {
  let rootUserId;
  const alice = { name: unique("alice"), key: newKeyPair() };
  let createUsersActivity;

  test("getWhoami names the root user and organization", async () => {
    const whoami = await root.getWhoami({ organizationId });
    assert.equal(whoami.organizationId, organizationId);
    assert.equal(whoami.username, "root");
    assert.equal(typeof whoami.organizationName, "string");
    assert.ok(whoami.organizationName.length > 0);
    assert.equal(typeof whoami.userId, "string");
    rootUserId = whoami.userId;
  });

  test("createUsers (V4) creates a user with an API key, who can then call whoami with it", async () => {
    const response = await root.createUsers({
      type: "ACTIVITY_TYPE_CREATE_USERS_V4",
      timestampMs: now(),
      organizationId,
      parameters: {
        users: [{
          userName: alice.name,
          userEmail: `${alice.name}@example.com`,
          apiKeys: [apiKeyParams("alice key", alice.key)],
          authenticators: [],
          oauthProviders: [],
          userTags: [],
        }],
      },
    });
    createUsersActivity = response.activity;
    const result = assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_CREATE_USERS_V4", intentKey: "createUsersIntentV4", resultKey: "createUsersResult",
    });
    assert.equal(result.userIds.length, 1);
    alice.userId = result.userIds[0];
    assert.equal(response.activity.votes[0].userId, rootUserId);
    assert.equal(response.activity.intent.createUsersIntentV4.users[0].userName, alice.name);

    const whoami = await clientFor(alice.key).getWhoami({ organizationId });
    assert.deepEqual(whoami, {
      organizationId, organizationName: whoami.organizationName, userId: alice.userId, username: alice.name,
    });
  });

  test("getUser returns the new user with its API key", async () => {
    const { user } = await root.getUser({ organizationId, userId: alice.userId });
    assertUserShape(user);
    assert.equal(user.userId, alice.userId);
    assert.equal(user.userName, alice.name);
    assert.equal(user.userEmail, `${alice.name}@example.com`);
    assert.equal(user.apiKeys.length, 1);
    assert.equal(user.apiKeys[0].apiKeyName, "alice key");
    assert.equal(user.apiKeys[0].credential.publicKey, alice.key.publicKey);
  });

  test("getUsers lists the root user and the new user", async () => {
    const { users } = await root.getUsers({ organizationId });
    users.forEach(assertUserShape);
    const ids = users.map((u) => u.userId);
    assert.ok(ids.includes(rootUserId));
    assert.ok(ids.includes(alice.userId));
  });

  test("createApiKeys, getApiKeys and deleteApiKeys manage a second key of the user", async () => {
    const second = newKeyPair();
    const created = await root.createApiKeys({
      type: "ACTIVITY_TYPE_CREATE_API_KEYS_V2",
      timestampMs: now(),
      organizationId,
      parameters: {
        userId: alice.userId,
        apiKeys: [{ ...apiKeyParams("alice second key", second), expirationSeconds: "3600" }],
      },
    });
    const { apiKeyIds } = assertCompleted(created.activity, {
      type: "ACTIVITY_TYPE_CREATE_API_KEYS_V2", intentKey: "createApiKeysIntentV2", resultKey: "createApiKeysResult",
    });
    assert.equal(apiKeyIds.length, 1);

    const listed = await root.getApiKeys({ organizationId, userId: alice.userId });
    listed.apiKeys.forEach(assertApiKeyShape);
    const secondKey = listed.apiKeys.find((k) => k.apiKeyId === apiKeyIds[0]);
    assert.ok(secondKey, "the new key is listed");
    assert.equal(secondKey.apiKeyName, "alice second key");
    assert.equal(secondKey.credential.publicKey, second.publicKey);
    assert.equal(secondKey.expirationSeconds, "3600", "an expiring key reports its lifetime as a string");
    assert.equal(listed.apiKeys.find((k) => k.apiKeyId !== apiKeyIds[0]).expirationSeconds, undefined);
    assert.equal(listed.apiKeys.length, 2);

    const whoami = await clientFor(second).getWhoami({ organizationId });
    assert.equal(whoami.userId, alice.userId);

    const deleted = await root.deleteApiKeys({
      type: "ACTIVITY_TYPE_DELETE_API_KEYS",
      timestampMs: now(),
      organizationId,
      parameters: { userId: alice.userId, apiKeyIds },
    });
    const deleteResult = assertCompleted(deleted.activity, {
      type: "ACTIVITY_TYPE_DELETE_API_KEYS", intentKey: "deleteApiKeysIntent", resultKey: "deleteApiKeysResult",
    });
    assert.deepEqual(deleteResult.apiKeyIds, apiKeyIds);
    const after = await root.getApiKeys({ organizationId, userId: alice.userId });
    assert.deepEqual(after.apiKeys.map((k) => k.credential.publicKey), [alice.key.publicKey]);
    await assertRequestError(clientFor(second).getWhoami({ organizationId }),
      { code: 16, turnkeyErrorCode: "PUBLIC_KEY_NOT_FOUND" });
  });

  test("createUserTag tags the user; listUserTags and getUser show the tag", async () => {
    const tagName = unique("ops");
    const response = await root.createUserTag({
      type: "ACTIVITY_TYPE_CREATE_USER_TAG",
      timestampMs: now(),
      organizationId,
      parameters: { userTagName: tagName, userIds: [alice.userId] },
    });
    const result = assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_CREATE_USER_TAG", intentKey: "createUserTagIntent", resultKey: "createUserTagResult",
    });
    assert.equal(typeof result.userTagId, "string");
    assert.deepEqual(result.userIds, [alice.userId]);

    const { userTags } = await root.listUserTags({ organizationId });
    userTags.forEach(assertTagShape);
    const tag = userTags.find((t) => t.tagId === result.userTagId);
    assert.ok(tag, "the tag is listed");
    assert.equal(tag.tagName, tagName);

    const { user } = await root.getUser({ organizationId, userId: alice.userId });
    assert.deepEqual(user.userTags, [result.userTagId]);
  });

  test("getOrganization returns the organization with its users and root quorum", async () => {
    const { organizationData } = await root.getOrganization({ organizationId });
    assert.equal(organizationData.organizationId, organizationId);
    assert.equal(typeof organizationData.name, "string");
    for (const member of ["users", "policies", "privateKeys", "invitations", "tags", "features", "wallets",
      "smartContractInterfaceReferences"]) {
      assert.ok(Array.isArray(organizationData[member]), `organizationData.${member} is an array`);
    }
    organizationData.users.forEach(assertUserShape);
    const ids = organizationData.users.map((u) => u.userId);
    assert.ok(ids.includes(rootUserId) && ids.includes(alice.userId));
    assert.equal(organizationData.rootQuorum.threshold, 1);
    assert.deepEqual(organizationData.rootQuorum.userIds, [rootUserId]);
  });

  test("updateRootQuorum accepts the current quorum again", async () => {
    const response = await root.updateRootQuorum({
      type: "ACTIVITY_TYPE_UPDATE_ROOT_QUORUM",
      timestampMs: now(),
      organizationId,
      parameters: { threshold: 1, userIds: [rootUserId] },
    });
    const result = assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_UPDATE_ROOT_QUORUM", intentKey: "updateRootQuorumIntent",
      resultKey: "updateRootQuorumResult",
    });
    assert.deepEqual(result, {});
    const { organizationData } = await root.getOrganization({ organizationId });
    assert.deepEqual(organizationData.rootQuorum, { threshold: 1, userIds: [rootUserId] });
  });

  test("getActivity returns a submitted activity as the submit did", async () => {
    const { activity } = await root.getActivity({ organizationId, activityId: createUsersActivity.id });
    assert.deepEqual(activity, createUsersActivity);
  });

  test("getActivities filters by status and type and pages with limit and after", async () => {
    const completed = await root.getActivities({
      organizationId,
      filterByStatus: ["ACTIVITY_STATUS_COMPLETED"],
      paginationOptions: { limit: "100" },
    });
    assert.ok(completed.activities.length >= 5);
    assert.ok(completed.activities.every((a) => a.status === "ACTIVITY_STATUS_COMPLETED"));
    assert.ok(completed.activities.some((a) => a.id === createUsersActivity.id));

    const failedOnly = await root.getActivities({ organizationId, filterByStatus: ["ACTIVITY_STATUS_FAILED"] });
    assert.ok(failedOnly.activities.every((a) => a.status === "ACTIVITY_STATUS_FAILED"));

    const byType = await root.getActivities({ organizationId, filterByType: ["ACTIVITY_TYPE_CREATE_USER_TAG"] });
    assert.ok(byType.activities.length >= 1);
    assert.ok(byType.activities.every((a) => a.type === "ACTIVITY_TYPE_CREATE_USER_TAG"));

    const first = await root.getActivities({
      organizationId, filterByStatus: ["ACTIVITY_STATUS_COMPLETED"], paginationOptions: { limit: "2" },
    });
    assert.equal(first.activities.length, 2);
    const second = await root.getActivities({
      organizationId,
      filterByStatus: ["ACTIVITY_STATUS_COMPLETED"],
      paginationOptions: { limit: "2", after: first.activities[1].id },
    });
    assert.equal(second.activities.length, 2);
    const paged = [...first.activities, ...second.activities].map((a) => a.id);
    assert.equal(new Set(paged).size, 4, "pages do not overlap");
    // Other test files may add activities meanwhile; they are newer, so they only ever come before the cursor.
    const all = (await root.getActivities({
      organizationId, filterByStatus: ["ACTIVITY_STATUS_COMPLETED"], paginationOptions: { limit: "100" },
    })).activities.map((a) => a.id);
    const start = all.indexOf(paged[0]);
    assert.ok(start >= 0);
    assert.deepEqual(paged, all.slice(start, start + 4), "the pages follow the full listing without gaps");
  });

  test("createSubOrganization (V8) creates a sub-organization with its own root user", async () => {
    const subRoot = { name: unique("sub-root"), key: newKeyPair() };
    const response = await root.createSubOrganization({
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8",
      timestampMs: now(),
      organizationId,
      parameters: {
        subOrganizationName: unique("sub"),
        rootUsers: [{
          userName: subRoot.name,
          apiKeys: [apiKeyParams("sub root key", subRoot.key)],
          authenticators: [],
          oauthProviders: [],
        }],
        rootQuorumThreshold: 1,
      },
    });
    const result = assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8", intentKey: "createSubOrganizationIntentV8",
      resultKey: "createSubOrganizationResultV8",
    });
    const subOrganizationId = result.subOrganizationId;
    assert.equal(typeof subOrganizationId, "string");
    assert.notEqual(subOrganizationId, organizationId);
    assert.equal(result.rootUserIds.length, 1);
    assert.equal(result.wallet, undefined);

    // The sub-organization's root user, by the sub-organization id and through the parent (sub-org lookup).
    const subClient = clientFor(subRoot.key);
    const direct = await subClient.getWhoami({ organizationId: subOrganizationId });
    assert.equal(direct.organizationId, subOrganizationId);
    assert.equal(direct.userId, result.rootUserIds[0]);
    assert.equal(direct.username, subRoot.name);
    const viaParent = await subClient.getWhoami({ organizationId });
    assert.deepEqual(viaParent, direct);

    // The parent's root user may read the sub-organization...
    const { organizationData } = await root.getOrganization({ organizationId: subOrganizationId });
    assert.equal(organizationData.organizationId, subOrganizationId);
    assert.deepEqual(organizationData.rootQuorum, { threshold: 1, userIds: result.rootUserIds });
    assert.deepEqual(organizationData.users.map((u) => u.userId), result.rootUserIds);

    // ...but not act in it.
    await assertRequestError(root.createUsers({
      type: "ACTIVITY_TYPE_CREATE_USERS_V4",
      timestampMs: now(),
      organizationId: subOrganizationId,
      parameters: {
        users: [{
          userName: unique("intruder"), apiKeys: [apiKeyParams("k", newKeyPair())], authenticators: [],
          oauthProviders: [], userTags: [],
        }],
      },
    }), { code: 3, turnkeyErrorCode: "INVALID_ACTIVITY_CALLER", message: /organization mismatch/ });

    // The sub-organization's root user may.
    const own = await subClient.createUsers({
      type: "ACTIVITY_TYPE_CREATE_USERS_V4",
      timestampMs: now(),
      organizationId: subOrganizationId,
      parameters: {
        users: [{
          userName: unique("sub-user"), apiKeys: [apiKeyParams("k", newKeyPair())], authenticators: [],
          oauthProviders: [], userTags: [],
        }],
      },
    });
    assertCompleted(own.activity, {
      type: "ACTIVITY_TYPE_CREATE_USERS_V4", orgId: subOrganizationId, intentKey: "createUsersIntentV4",
      resultKey: "createUsersResult",
    });
  });

  test("a non-root user's createUsers is recorded as a FAILED activity in a 200 response", async () => {
    const response = await clientFor(alice.key).createUsers({
      type: "ACTIVITY_TYPE_CREATE_USERS_V4",
      timestampMs: now(),
      organizationId,
      parameters: {
        users: [{
          userName: unique("mallory"), apiKeys: [apiKeyParams("k", newKeyPair())], authenticators: [],
          oauthProviders: [], userTags: [],
        }],
      },
    });
    // TurnkeyClient does not look at the status: the caller gets the activity and must check it.
    const { activity } = response;
    assert.equal(activity.status, "ACTIVITY_STATUS_FAILED");
    assert.equal(activity.type, "ACTIVITY_TYPE_CREATE_USERS_V4");
    assert.deepEqual(activity.result, {});
    assert.equal(activity.votes.length, 1);
    assert.equal(activity.votes[0].userId, alice.userId);
    assert.equal(typeof activity.failure.message, "string");
    assert.equal(activity.failure.code, 7);
    assert.ok(activity.failure.details.some((d) => d.turnkeyErrorCode === "REQUEST_NOT_AUTHORIZED"),
      JSON.stringify(activity.failure));

    const fetched = await root.getActivity({ organizationId, activityId: activity.id });
    assert.equal(fetched.activity.status, "ACTIVITY_STATUS_FAILED");
    const failed = await root.getActivities({ organizationId, filterByStatus: ["ACTIVITY_STATUS_FAILED"] });
    assert.ok(failed.activities.some((a) => a.id === activity.id));
  });

  test("deleteUsers removes the user, whose key then stops working", async () => {
    const response = await root.deleteUsers({
      type: "ACTIVITY_TYPE_DELETE_USERS",
      timestampMs: now(),
      organizationId,
      parameters: { userIds: [alice.userId] },
    });
    const result = assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_DELETE_USERS", intentKey: "deleteUsersIntent", resultKey: "deleteUsersResult",
    });
    assert.deepEqual(result.userIds, [alice.userId]);
    const { users } = await root.getUsers({ organizationId });
    assert.ok(!users.some((u) => u.userId === alice.userId));
    await assertRequestError(clientFor(alice.key).getWhoami({ organizationId }),
      { code: 16, turnkeyErrorCode: "PUBLIC_KEY_NOT_FOUND" });
  });
});
