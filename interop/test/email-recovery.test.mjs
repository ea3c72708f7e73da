// Email recovery with the official clients: initUserEmailRecovery through @turnkey/sdk-server; the server under test
// has no SMTP server configured, so the message lands in the Maildir of its data directory (beside the root key
// files), where this test reads it as a mail client would; @turnkey/crypto's decryptCredentialBundle opens the
// emailed bundle with the target key, and recoverUser, stamped with the recovered key, registers a new API key once.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { decryptCredentialBundle, generateP256KeyPair, getPublicKey } from "@turnkey/crypto";
import {
  apiKeyParams,
  assertCompleted,
  assertRequestError,
  newKeyPair,
  sdkClientFor,
  unique,
} from "../lib/keyhaven.mjs";
import { messageTo } from "../lib/maildir.mjs";

const sdk = sdkClientFor();


describe("email recovery through @turnkey/sdk-server, opened with @turnkey/crypto", () => {
  test("initUserEmailRecovery mails a credential bundle that recovers the user once", async () => {
    const email = `${unique("recover")}@example.com`;
    const created = await sdk.createUsers({ users: [{ userName: unique("recover"), userEmail: email,
      apiKeys: [apiKeyParams("old", newKeyPair())], authenticators: [], oauthProviders: [], userTags: [] }] });
    const userId = created.userIds[0];

    const target = generateP256KeyPair();
    const started = await sdk.initUserEmailRecovery({
      email, targetPublicKey: target.publicKeyUncompressed,
      emailCustomization: { appName: "Interop", magicLinkTemplate: "https://app.example/recover?bundle=%s" },
    });
    assertCompleted(started.activity, {
      type: "ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2", intentKey: "initUserEmailRecoveryIntentV2",
      resultKey: "initUserEmailRecoveryResult",
    });
    assert.equal(started.userId, userId);

    const message = messageTo(email);
    assert.match(message, /Subject: Interop: recover your account/);
    const bundle = message.match(/bundle=([1-9A-HJ-NP-Za-km-z]+)/)[1];
    const recoveryPrivateKey = decryptCredentialBundle(bundle, target.privateKey);
    assert.match(recoveryPrivateKey, /^[0-9a-f]{64}$/);
    const recovery = sdkClientFor({
      publicKey: Buffer.from(getPublicKey(recoveryPrivateKey, true)).toString("hex"),
      privateKey: recoveryPrivateKey,
    });

    const fresh = newKeyPair();
    const recovered = await recovery.recoverUser({ userId, apiKey: apiKeyParams("recovered", fresh) });
    assertCompleted(recovered.activity, {
      type: "ACTIVITY_TYPE_RECOVER_USER", intentKey: "recoverUserIntent", resultKey: "recoverUserResult",
    });
    assert.equal((await sdkClientFor(fresh).getWhoami({})).userId, userId);
    // Used up: the recovery key no longer authenticates.
    await assertRequestError(recovery.recoverUser({ userId, apiKey: apiKeyParams("again", newKeyPair()) }),
      { code: 16 });
  });
});
