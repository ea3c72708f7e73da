// @turnkey/sdk-server's Turnkey(...).apiClient(), used exactly as Turnkey documents: flat parameters, the SDK fills
// type, timestampMs and organizationId, polls non-terminal activities, and flattens a completed activity's result
// into the response next to `activity`.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Turnkey } from "@turnkey/sdk-server";
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
  unique,
} from "../lib/keyhaven.mjs";

const turnkey = new Turnkey({
  apiBaseUrl: baseUrl,
  apiPublicKey: rootKey.publicKey,
  apiPrivateKey: rootKey.privateKey,
  defaultOrganizationId: organizationId,
});
const root = turnkey.apiClient();
const clientFor = (key) => turnkey.apiClient({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey });

const newUser = (name, key) => ({
  userName: name,
  apiKeys: [apiKeyParams(`${name} key`, key)],
  authenticators: [],
  oauthProviders: [],
  userTags: [],
});

describe("@turnkey/sdk-server apiClient", () => {
  let rootUserId;
  const bob = { name: unique("bob"), key: newKeyPair() };
  let createUsersActivity;

  test("getWhoami names the root user and organization", async () => {
    const whoami = await root.getWhoami();
    assert.equal(whoami.organizationId, organizationId);
    assert.equal(whoami.username, "root");
    assert.equal(typeof whoami.organizationName, "string");
    assert.equal(typeof whoami.userId, "string");
    rootUserId = whoami.userId;
  });

  test("createUsers creates a user with an API key, who can then call whoami with it", async () => {
    const response = await root.createUsers({ users: [newUser(bob.name, bob.key)] });
    const result = assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_CREATE_USERS_V4", intentKey: "createUsersIntentV4", resultKey: "createUsersResult",
    });
    // The SDK spreads the result next to the activity.
    assert.deepEqual(response.userIds, result.userIds);
    assert.equal(response.userIds.length, 1);
    bob.userId = response.userIds[0];
    createUsersActivity = response.activity;

    const whoami = await clientFor(bob.key).getWhoami();
    assert.equal(whoami.userId, bob.userId);
    assert.equal(whoami.username, bob.name);
    assert.equal(whoami.organizationId, organizationId);
  });

  test("getUser and getUsers return the new user", async () => {
    const { user } = await root.getUser({ userId: bob.userId });
    assertUserShape(user);
    assert.equal(user.userName, bob.name);
    assert.equal(user.apiKeys[0].credential.publicKey, bob.key.publicKey);
    assert.equal(user.userEmail, undefined);

    const { users } = await root.getUsers();
    users.forEach(assertUserShape);
    const ids = users.map((u) => u.userId);
    assert.ok(ids.includes(rootUserId) && ids.includes(bob.userId));
  });

  test("createApiKeys, getApiKeys and deleteApiKeys manage a second key; a user may delete their own", async () => {
    const second = newKeyPair();
    const created = await root.createApiKeys({
      userId: bob.userId, apiKeys: [apiKeyParams("bob second key", second)],
    });
    assertCompleted(created.activity, {
      type: "ACTIVITY_TYPE_CREATE_API_KEYS_V2", intentKey: "createApiKeysIntentV2", resultKey: "createApiKeysResult",
    });
    assert.equal(created.apiKeyIds.length, 1);

    const { apiKeys } = await root.getApiKeys({ userId: bob.userId });
    apiKeys.forEach(assertApiKeyShape);
    assert.deepEqual(apiKeys.map((k) => k.credential.publicKey).sort(), [bob.key.publicKey, second.publicKey].sort());

    // Self-service: bob deletes his own second key with his first one.
    const deleted = await clientFor(bob.key).deleteApiKeys({ userId: bob.userId, apiKeyIds: created.apiKeyIds });
    const result = assertCompleted(deleted.activity, {
      type: "ACTIVITY_TYPE_DELETE_API_KEYS", intentKey: "deleteApiKeysIntent", resultKey: "deleteApiKeysResult",
    });
    assert.deepEqual(deleted.apiKeyIds, created.apiKeyIds);
    assert.deepEqual(result.apiKeyIds, created.apiKeyIds);
    assert.equal(deleted.activity.votes[0].userId, bob.userId);
    const after = await root.getApiKeys({ userId: bob.userId });
    assert.deepEqual(after.apiKeys.map((k) => k.credential.publicKey), [bob.key.publicKey]);
  });

  test("createUserTag and listUserTags", async () => {
    const tagName = unique("auditors");
    const response = await root.createUserTag({ userTagName: tagName, userIds: [bob.userId] });
    assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_CREATE_USER_TAG", intentKey: "createUserTagIntent", resultKey: "createUserTagResult",
    });
    assert.deepEqual(response.userIds, [bob.userId]);
    const { userTags } = await root.listUserTags();
    userTags.forEach(assertTagShape);
    assert.equal(userTags.find((t) => t.tagId === response.userTagId)?.tagName, tagName);
  });

  test("updateRootQuorum accepts the current quorum again", async () => {
    const response = await root.updateRootQuorum({ threshold: 1, userIds: [rootUserId] });
    assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_UPDATE_ROOT_QUORUM", intentKey: "updateRootQuorumIntent",
      resultKey: "updateRootQuorumResult",
    });
  });

  test("getActivity and getActivities (status filter, pagination)", async () => {
    const { activity } = await root.getActivity({ activityId: createUsersActivity.id });
    assert.deepEqual(activity, createUsersActivity);

    const page = await root.getActivities({
      filterByStatus: ["ACTIVITY_STATUS_COMPLETED"],
      paginationOptions: { limit: "3" },
    });
    assert.equal(page.activities.length, 3);
    assert.ok(page.activities.every((a) => a.status === "ACTIVITY_STATUS_COMPLETED"));
    const next = await root.getActivities({
      filterByStatus: ["ACTIVITY_STATUS_COMPLETED"],
      paginationOptions: { limit: "3", after: page.activities[2].id },
    });
    assert.ok(next.activities.length >= 1);
    const seen = new Set(page.activities.map((a) => a.id));
    assert.ok(next.activities.every((a) => !seen.has(a.id)), "the next page starts after the cursor");
  });

  test("createSubOrganization; the parent reads the sub-organization but cannot act in it", async () => {
    const subRoot = { name: unique("sub-root"), key: newKeyPair() };
    const response = await root.createSubOrganization({
      subOrganizationName: unique("sub"),
      rootUsers: [{
        userName: subRoot.name, apiKeys: [apiKeyParams("sub root key", subRoot.key)], authenticators: [],
        oauthProviders: [],
      }],
      rootQuorumThreshold: 1,
    });
    const result = assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8", intentKey: "createSubOrganizationIntentV8",
      resultKey: "createSubOrganizationResultV8",
    });
    assert.equal(response.subOrganizationId, result.subOrganizationId);
    assert.deepEqual(response.rootUserIds, result.rootUserIds);
    const subOrganizationId = response.subOrganizationId;

    const { users } = await root.getUsers({ organizationId: subOrganizationId });
    assert.deepEqual(users.map((u) => u.userId), response.rootUserIds);
    const whoami = await clientFor(subRoot.key).getWhoami({ organizationId: subOrganizationId });
    assert.equal(whoami.userId, response.rootUserIds[0]);

    await assertRequestError(root.createUsers({
      organizationId: subOrganizationId, users: [newUser(unique("intruder"), newKeyPair())],
    }), { code: 3, turnkeyErrorCode: "INVALID_ACTIVITY_CALLER", message: /organization mismatch/ });
  });

  test("a non-root user's createUsers comes back FAILED: the SDK returns the activity without a result", async () => {
    const response = await clientFor(bob.key).createUsers({ users: [newUser(unique("mallory"), newKeyPair())] });
    assert.equal(response.activity.status, "ACTIVITY_STATUS_FAILED");
    assert.equal(response.userIds, undefined, "nothing is spread from a failed activity");
    assert.equal(response.activity.failure.code, 7);
    assert.ok(response.activity.failure.details.some((d) => d.turnkeyErrorCode === "REQUEST_NOT_AUTHORIZED"));
  });

  test("deleteUsers removes the user", async () => {
    const response = await root.deleteUsers({ userIds: [bob.userId] });
    assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_DELETE_USERS", intentKey: "deleteUsersIntent", resultKey: "deleteUsersResult",
    });
    assert.deepEqual(response.userIds, [bob.userId]);
    await assertRequestError(clientFor(bob.key).getWhoami(), { code: 16, turnkeyErrorCode: "PUBLIC_KEY_NOT_FOUND" });
    await assertRequestError(root.getUser({ userId: bob.userId }), { code: 5 });
  });
});
