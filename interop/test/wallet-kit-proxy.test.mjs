// What @turnkey/react-wallet-kit 2.4 and @turnkey/core 2.8 ask the auth proxy before any login, with core unchanged:
// the kit's mount calls core's getAuthProxyConfig and getClientParams (POST /v1/wallet_kit_config and
// /v1/wallet_kit_client_params with no body; either failing leaves the kit in its error state), a TurnkeyClient with
// authProxyConfigId calls getProxyAuthConfig (the same endpoint with {}), and its sign-in flows ask /v1/account
// through httpClient.proxyGetAccount which account a credential belongs to. The server runs without captcha
// verification, so client params are {}.
import "../lib/browser-globals.mjs";
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { getAuthProxyConfig, getClientParams, TurnkeyClient } from "@turnkey/core";
import {
  apiKeyParams,
  authProxyConfigId,
  authProxyUrl,
  baseUrl,
  newKeyPair,
  organizationId,
  sdkClientFor,
  unique,
} from "../lib/keyhaven.mjs";

const sdk = sdkClientFor();

async function proxyClient() {
  const client = new TurnkeyClient({ apiBaseUrl: baseUrl, authProxyUrl, authProxyConfigId, organizationId });
  await client.init();
  return client;
}

describe("the wallet kit's auth proxy calls with @turnkey/core", () => {
  test("the kit's mount: getAuthProxyConfig and getClientParams (no body) succeed", async () => {
    const [config, params] = await Promise.all([
      getAuthProxyConfig(authProxyConfigId, authProxyUrl),
      getClientParams(authProxyConfigId, authProxyUrl),
    ]);
    assert.equal(config.organizationId, organizationId);
    // The kit reads enabledProviders with .includes() and renders Number(otpLength) boxes.
    assert.ok(Array.isArray(config.enabledProviders));
    assert.ok(config.enabledProviders.includes("email"));
    assert.equal(config.otpLength, "6");
    assert.equal(Number(config.sessionExpirationSeconds) > 0, true);
    assert.equal(typeof config.otpAlphanumeric, "boolean");
    assert.deepEqual(params, {});
  });

  test("getProxyAuthConfig of a TurnkeyClient with authProxyConfigId", async () => {
    const client = await proxyClient();
    const config = await client.getProxyAuthConfig();
    assert.equal(config.organizationId, organizationId);
    assert.ok(config.enabledProviders.includes("email"));
  });

  test("proxyGetAccount finds a wallet's key, answers {} for an unknown one, and wants proof for an email", async () => {
    const client = await proxyClient();
    const key = newKeyPair();
    const { subOrganizationId } = await sdk.createSubOrganization({
      subOrganizationName: unique("kit"),
      rootUsers: [{ userName: unique("kit"), apiKeys: [apiKeyParams("wallet-auth", key)], authenticators: [],
        oauthProviders: [] }],
      rootQuorumThreshold: 1,
    });
    const found = await client.httpClient.proxyGetAccount({ filterType: "PUBLIC_KEY", filterValue: key.publicKey });
    assert.deepEqual(found, { organizationId: subOrganizationId });
    const none = await client.httpClient.proxyGetAccount({ filterType: "PUBLIC_KEY",
      filterValue: newKeyPair().publicKey });
    assert.deepEqual(none, {});
    await assert.rejects(
      client.httpClient.proxyGetAccount({ filterType: "EMAIL", filterValue: `${unique("kit")}@example.com` }),
      (error) => {
        assert.match(error.message, /verificationToken/);
        return true;
      },
    );
  });
});
