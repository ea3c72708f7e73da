// OAuth 2.0 client credentials with the official packages: the client secret is encrypted with @turnkey/crypto's
// encryptOauth2ClientSecret, unchanged, to the key the server publishes at /public/v1/discovery/oauth2-encryption-key
// (its override key); @turnkey/sdk-server creates the credential, @turnkey/http lists and gets it, and the plain
// secret never comes back.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { TurnkeyClient } from "@turnkey/http";
import { encryptOauth2ClientSecret } from "@turnkey/crypto";
import { assertCompleted, assertTimestampObject, baseUrl, organizationId, rootKey, sdkClientFor, stamperFor, unique }
  from "../lib/keyhaven.mjs";

async function encryptionKey() {
  const response = await fetch(`${baseUrl}/public/v1/discovery/oauth2-encryption-key`);
  assert.equal(response.status, 200);
  const body = await response.json();
  assert.deepEqual(Object.keys(body), ["publicKey"]);
  assert.match(body.publicKey, /^04[0-9a-f]{128}$/);
  return body.publicKey;
}

describe("OAuth 2.0 credentials with encryptOauth2ClientSecret", () => {
  const sdk = sdkClientFor();
  const client = new TurnkeyClient({ baseUrl }, stamperFor(rootKey));

  test("a credential made with sdk-server is listed and read with every field, the secret only encrypted",
    async () => {
      const secret = unique("client-secret");
      const encryptedClientSecret = await encryptOauth2ClientSecret(secret, await encryptionKey());
      const clientId = unique("client");
      const created = await sdk.createOauth2Credential({ provider: "OAUTH2_PROVIDER_X", clientId,
        encryptedClientSecret });
      const result = assertCompleted(created.activity, { type: "ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL",
        resultKey: "createOauth2CredentialResult", intentKey: "createOauth2CredentialIntent" });
      assert.equal(created.oauth2CredentialId, result.oauth2CredentialId);

      const listed = await client.listOauth2Credentials({ organizationId });
      const credential = listed.oauth2Credentials.find((c) => c.oauth2CredentialId === created.oauth2CredentialId);
      assert.ok(credential, "the new credential is listed");
      assert.deepEqual(Object.keys(credential).sort(), ["clientId", "createdAt", "encryptedClientSecret",
        "oauth2CredentialId", "organizationId", "provider", "updatedAt"]);
      assert.equal(credential.organizationId, organizationId);
      assert.equal(credential.provider, "OAUTH2_PROVIDER_X");
      assert.equal(credential.clientId, clientId);
      assert.equal(credential.encryptedClientSecret, encryptedClientSecret);
      assertTimestampObject(credential.createdAt, "createdAt");
      assertTimestampObject(credential.updatedAt, "updatedAt");

      const got = await client.getOauth2Credential({ organizationId,
        oauth2CredentialId: created.oauth2CredentialId });
      assert.deepEqual(got.oauth2Credential, credential);
      const sdkList = await sdk.listOauth2Credentials({});
      assert.ok(sdkList.oauth2Credentials.some((c) => c.oauth2CredentialId === created.oauth2CredentialId));
      for (const body of [created, listed, got, sdkList]) {
        assert.ok(!JSON.stringify(body).includes(secret), "the plain secret is never returned");
      }
    });

  test("a secret encrypted to another key is refused naming the field, and the clients report it", async () => {
    const otherKey = "04" + "51c807c215884af3ce8a5533a46e0ba7df2e88b776ee2240e7f9e781b0c0cbc6"
      + "919ca11cb32fa54d91589f0e2fef284d91e55927d6ab2f4f92059aec789ed7e1";
    const encryptedClientSecret = await encryptOauth2ClientSecret("secret", otherKey);
    await assert.rejects(sdk.createOauth2Credential({ provider: "OAUTH2_PROVIDER_DISCORD", clientId: unique("c"),
      encryptedClientSecret }), (error) => {
      assert.match(String(error.message), /parameters\.encryptedClientSecret/);
      assert.ok(!String(error.message).includes(encryptedClientSecret), "the envelope is not echoed");
      return true;
    });
    await assert.rejects(client.getOauth2Credential({ organizationId, oauth2CredentialId: "no-such-credential" }),
      (error) => {
        assert.match(String(error.message), /OAUTH2_CREDENTIAL_NOT_FOUND|404/);
        return true;
      });
  });
});
