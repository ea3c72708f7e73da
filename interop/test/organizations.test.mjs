// The organization operations through `@turnkey/sdk-server`'s apiClient (unchanged): getSubOrgIds (list_suborgs)
// with a filter and pagination, getVerifiedSubOrgIds, getOrganizationConfigs, set/removeOrganizationFeature and
// deleteSubOrganization (refused while keys were never exported); and createApiOnlyUsers, which only
// `@turnkey/http`'s TurnkeyClient still sends.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { TurnkeyClient } from "@turnkey/http";
import {
  apiKeyParams,
  assertCompleted,
  assertRequestError,
  baseUrl,
  newKeyPair,
  organizationId,
  rootKey,
  sdkClientFor,
  stamperFor,
  unique,
} from "../lib/keyhaven.mjs";

const root = sdkClientFor();

async function newSubOrganization(name, key) {
  const response = await root.createSubOrganization({
    subOrganizationName: name,
    rootUsers: [{
      userName: `root of ${name}`, apiKeys: [apiKeyParams("k", key)], authenticators: [], oauthProviders: [],
    }],
    rootQuorumThreshold: 1,
  });
  return response.subOrganizationId;
}

describe("organization operations through @turnkey/sdk-server", () => {
  const key = newKeyPair();
  const name = unique("orgops");
  let subId;

  test("getSubOrgIds finds a sub-organization by name and pages in creation order", async () => {
    subId = await newSubOrganization(name, key);
    const byName = await root.getSubOrgIds({ filterType: "NAME", filterValue: name });
    assert.deepEqual(byName.organizationIds, [subId]);

    const later = await newSubOrganization(unique("orgops-later"), newKeyPair());
    const after = await root.getSubOrgIds({ paginationOptions: { limit: "1", after: subId } });
    assert.deepEqual(after.organizationIds, [later]);
    const before = await root.getSubOrgIds({ paginationOptions: { limit: "1", before: later } });
    assert.deepEqual(before.organizationIds, [subId]);
  });

  test("getVerifiedSubOrgIds matches verified contacts only", async () => {
    const none = await root.getVerifiedSubOrgIds({ filterType: "EMAIL", filterValue: `${name}@example.com` });
    assert.deepEqual(none.organizationIds, []);
    await assertRequestError(root.getVerifiedSubOrgIds({ filterType: "NAME", filterValue: name }), {
      code: 3, turnkeyErrorCode: "REQUEST_INVALID",
    });
  });

  test("getOrganizationConfigs, setOrganizationFeature and removeOrganizationFeature", async () => {
    const sub = sdkClientFor(key, subId);
    const { configs } = await sub.getOrganizationConfigs({ organizationId: subId });
    assert.equal(configs.quorum.threshold, 1);
    assert.equal(configs.quorum.userIds.length, 1);
    assert.ok(configs.features.some((f) => f.name === "FEATURE_NAME_OTP_EMAIL_AUTH"));

    const removed = await sub.removeOrganizationFeature({ name: "FEATURE_NAME_OTP_EMAIL_AUTH" });
    assertCompleted(removed.activity, {
      type: "ACTIVITY_TYPE_REMOVE_ORGANIZATION_FEATURE", orgId: subId,
      intentKey: "removeOrganizationFeatureIntent", resultKey: "removeOrganizationFeatureResult",
    });
    assert.ok(!removed.features.some((f) => f.name === "FEATURE_NAME_OTP_EMAIL_AUTH"));

    const set = await sub.setOrganizationFeature({ name: "FEATURE_NAME_OTP_EMAIL_AUTH", value: "" });
    assertCompleted(set.activity, {
      type: "ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE", orgId: subId,
      intentKey: "setOrganizationFeatureIntent", resultKey: "setOrganizationFeatureResult",
    });
    assert.ok(set.features.some((f) => f.name === "FEATURE_NAME_OTP_EMAIL_AUTH" && f.value === ""));

    await assertRequestError(sub.setOrganizationFeature({ name: "FEATURE_NAME_WEBAUTHN_ORIGINS", value: "*" }), {
      code: 12,
    });
  });

  test("deleteSubOrganization is refused while a wallet was never exported, then deletes with deleteWithoutExport",
    async () => {
      const sub = sdkClientFor(key, subId);
      await sub.createWallet({
        walletName: unique("w"),
        accounts: [{
          curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0",
          addressFormat: "ADDRESS_FORMAT_ETHEREUM",
        }],
      });
      await assertRequestError(sub.deleteSubOrganization({}), { code: 9, message: /never exported/ });
      const deleted = await sub.deleteSubOrganization({ deleteWithoutExport: true });
      assertCompleted(deleted.activity, {
        type: "ACTIVITY_TYPE_DELETE_SUB_ORGANIZATION", orgId: subId,
        intentKey: "deleteSubOrganizationIntent", resultKey: "deleteSubOrganizationResult",
      });
      assert.equal(deleted.subOrganizationUuid, subId);
      const byName = await root.getSubOrgIds({ filterType: "NAME", filterValue: name });
      assert.deepEqual(byName.organizationIds, []);
    });

  test("createApiOnlyUsers (TurnkeyClient) creates a user whose P-256 key then works", async () => {
    const client = new TurnkeyClient({ baseUrl }, stamperFor(rootKey));
    const robot = newKeyPair();
    const response = await client.createApiOnlyUsers({
      type: "ACTIVITY_TYPE_CREATE_API_ONLY_USERS",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: {
        apiOnlyUsers: [{
          userName: unique("robot"), userTags: [], apiKeys: [{ apiKeyName: "robot key", publicKey: robot.publicKey }],
        }],
      },
    });
    const result = assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_CREATE_API_ONLY_USERS", intentKey: "createApiOnlyUsersIntent",
      resultKey: "createApiOnlyUsersResult",
    });
    const whoami = await sdkClientFor(robot).getWhoami();
    assert.equal(whoami.userId, result.userIds[0]);
  });
});
