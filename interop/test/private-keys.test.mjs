// Standalone private keys and private-key tags through @turnkey/sdk-server's apiClient() (and @turnkey/http for a
// whole-body request): create_private_keys (V2, with address formats and tags), get_private_key, list_private_keys,
// create_private_key_tag, update_private_key_tag (all or nothing), list_private_key_tags, delete_private_key_tags and
// delete_private_keys. Public keys are checked against the addresses with viem and bs58, and each key's raw signatures
// with @noble/curves.
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { before, describe, test } from "node:test";
import { TurnkeyClient } from "@turnkey/http";
import { secp256k1 } from "@noble/curves/secp256k1";
import { ed25519 } from "@noble/curves/ed25519";
import { p256 } from "@noble/curves/p256";
import { publicKeyToAddress } from "viem/accounts";
import bs58 from "bs58";
import {
  assertCompleted,
  assertPrivateKeyShape,
  assertRequestError,
  assertPrivateKeyTagShape,
  baseUrl,
  organizationId,
  rootKey,
  sdkClientFor,
  stamperFor,
  unique,
} from "../lib/keyhaven.mjs";

const sdk = sdkClientFor();
const http = new TurnkeyClient({ baseUrl }, stamperFor(rootKey));

const tagIdsOf = async (privateKeyId) => (await sdk.getPrivateKey({ privateKeyId })).privateKey.privateKeyTags;

describe("private keys and private-key tags through @turnkey/sdk-server", () => {
  const names = { eth: unique("pk-eth"), sol: unique("pk-sol"), p256: unique("pk-p256") };
  const ids = {};
  const tag = { name: unique("pk-tag") };

  before(async () => {
    // A tag first, so a key can be created with it.
    const created = await sdk.createPrivateKeyTag({ privateKeyTagName: tag.name, privateKeyIds: [] });
    const result = assertCompleted(created.activity, {
      type: "ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG", intentKey: "createPrivateKeyTagIntent",
      resultKey: "createPrivateKeyTagResult",
    });
    assert.equal(created.privateKeyTagId, result.privateKeyTagId);
    assert.deepEqual(result.privateKeyIds, []);
    tag.id = result.privateKeyTagId;
  });

  test("createPrivateKeys (V2) creates keys on each curve with the addresses asked for", async () => {
    const response = await sdk.createPrivateKeys({
      privateKeys: [
        {
          privateKeyName: names.eth, curve: "CURVE_SECP256K1", privateKeyTags: [tag.id],
          addressFormats: ["ADDRESS_FORMAT_ETHEREUM", "ADDRESS_FORMAT_COMPRESSED", "ADDRESS_FORMAT_UNCOMPRESSED"],
        },
        {
          privateKeyName: names.sol, curve: "CURVE_ED25519", privateKeyTags: [],
          addressFormats: ["ADDRESS_FORMAT_SOLANA"],
        },
        { privateKeyName: names.p256, curve: "CURVE_P256", privateKeyTags: [], addressFormats: [] },
      ],
    });
    const result = assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2", intentKey: "createPrivateKeysIntentV2",
      resultKey: "createPrivateKeysResultV2",
    });
    assert.deepEqual(response.privateKeys, result.privateKeys);
    assert.equal(result.privateKeys.length, 3);
    [ids.eth, ids.sol, ids.p256] = result.privateKeys.map((k) => k.privateKeyId);
    assert.equal(new Set(Object.values(ids)).size, 3);
    assert.deepEqual(result.privateKeys[0].addresses.map((a) => a.format),
      ["ADDRESS_FORMAT_ETHEREUM", "ADDRESS_FORMAT_COMPRESSED", "ADDRESS_FORMAT_UNCOMPRESSED"]);
    assert.deepEqual(result.privateKeys[1].addresses.map((a) => a.format), ["ADDRESS_FORMAT_SOLANA"]);
    assert.deepEqual(result.privateKeys[2].addresses, []);
  });

  test("getPrivateKey reports the public key (uncompressed for ECDSA curves, raw for Ed25519) and its addresses",
    async () => {
      const { privateKey: eth } = await sdk.getPrivateKey({ privateKeyId: ids.eth });
      assertPrivateKeyShape(eth);
      assert.equal(eth.privateKeyName, names.eth);
      assert.equal(eth.curve, "CURVE_SECP256K1");
      assert.deepEqual(eth.privateKeyTags, [tag.id]);
      assert.equal(eth.exported, false);
      assert.equal(eth.imported, false);
      assert.match(eth.publicKey, /^04[0-9a-f]{128}$/);
      const point = secp256k1.ProjectivePoint.fromHex(eth.publicKey); // throws when off the curve
      const address = (format) => eth.addresses.find((a) => a.format === format).address;
      assert.equal(address("ADDRESS_FORMAT_ETHEREUM"), publicKeyToAddress(`0x${eth.publicKey}`));
      assert.equal(address("ADDRESS_FORMAT_COMPRESSED"), point.toHex(true));
      assert.equal(address("ADDRESS_FORMAT_UNCOMPRESSED"), eth.publicKey);

      const { privateKey: sol } = await sdk.getPrivateKey({ privateKeyId: ids.sol });
      assertPrivateKeyShape(sol);
      assert.equal(sol.curve, "CURVE_ED25519");
      assert.match(sol.publicKey, /^[0-9a-f]{64}$/);
      assert.equal(sol.addresses[0].address, bs58.encode(Buffer.from(sol.publicKey, "hex")));

      const viaHttp = await http.getPrivateKey({ organizationId, privateKeyId: ids.p256 });
      assertPrivateKeyShape(viaHttp.privateKey);
      assert.equal(viaHttp.privateKey.curve, "CURVE_P256");
      assert.match(viaHttp.privateKey.publicKey, /^04[0-9a-f]{128}$/);
      p256.ProjectivePoint.fromHex(viaHttp.privateKey.publicKey);
    });

  test("getPrivateKeys (list_private_keys) lists the new keys", async () => {
    const { privateKeys } = await sdk.getPrivateKeys();
    privateKeys.forEach(assertPrivateKeyShape);
    for (const [kind, id] of Object.entries(ids)) {
      const listed = privateKeys.find((k) => k.privateKeyId === id);
      assert.ok(listed, `${kind} key is listed`);
      assert.deepEqual(listed, (await sdk.getPrivateKey({ privateKeyId: id })).privateKey);
    }
  });

  test("each key signs raw payloads, by id and by address; @noble/curves verifies", async () => {
    const { privateKey: sol } = await sdk.getPrivateKey({ privateKeyId: ids.sol });
    for (const signWith of [ids.sol, sol.addresses[0].address]) {
      const { r, s } = await sdk.signRawPayload({
        signWith, payload: "keyhaven", encoding: "PAYLOAD_ENCODING_TEXT_UTF8",
        hashFunction: "HASH_FUNCTION_NOT_APPLICABLE",
      });
      assert.ok(ed25519.verify(r + s, Buffer.from("keyhaven"), sol.publicKey), `Ed25519 by ${signWith}`);
    }
    const { privateKey: p } = await sdk.getPrivateKey({ privateKeyId: ids.p256 });
    const { r, s, v } = await sdk.signRawPayload({
      signWith: ids.p256, payload: "cafe", encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_SHA256",
    });
    const digest = crypto.createHash("sha256").update(Buffer.from("cafe", "hex")).digest();
    assert.ok(p256.verify(r + s, digest, p.publicKey, { lowS: false }), "P-256 by id");
    assert.equal(p256.Signature.fromCompact(r + s).addRecoveryBit(Number(v)).recoverPublicKey(digest).toHex(false),
      p.publicKey);
  });

  test("createPrivateKeys refuses a name in use, a format the curve cannot have and an unknown tag, atomically",
    async () => {
      const fresh = unique("pk-never");
      const cases = [
        [{ privateKeyName: names.eth, curve: "CURVE_SECP256K1", privateKeyTags: [], addressFormats: [] },
          { code: 3, turnkeyErrorCode: "REQUEST_INVALID", message: /already exists/ }],
        [{ privateKeyName: unique("pk-bad"), curve: "CURVE_ED25519", privateKeyTags: [],
          addressFormats: ["ADDRESS_FORMAT_ETHEREUM"] }, { code: 3, turnkeyErrorCode: "REQUEST_INVALID" }],
        [{ privateKeyName: unique("pk-bad"), curve: "CURVE_SECP256K1", privateKeyTags: [crypto.randomUUID()],
          addressFormats: [] }, { code: 5 }],
      ];
      for (const [bad, expected] of cases) {
        await assertRequestError(sdk.createPrivateKeys({
          privateKeys: [
            { privateKeyName: fresh, curve: "CURVE_SECP256K1", privateKeyTags: [], addressFormats: [] }, bad,
          ],
        }), expected);
      }
      const { privateKeys } = await sdk.getPrivateKeys();
      assert.ok(!privateKeys.some((k) => k.privateKeyName === fresh), "the good key of a refused batch is not kept");
    });

  test("createPrivateKeyTag with keys, listPrivateKeyTags", async () => {
    const name = unique("pk-tag-two");
    const response = await sdk.createPrivateKeyTag({ privateKeyTagName: name, privateKeyIds: [ids.sol, ids.p256] });
    const result = assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG", intentKey: "createPrivateKeyTagIntent",
      resultKey: "createPrivateKeyTagResult",
    });
    assert.deepEqual(result.privateKeyIds, [ids.sol, ids.p256]);
    assert.deepEqual(await tagIdsOf(ids.sol), [response.privateKeyTagId]);
    assert.deepEqual(await tagIdsOf(ids.p256), [response.privateKeyTagId]);

    const { privateKeyTags } = await sdk.listPrivateKeyTags({});
    privateKeyTags.forEach(assertPrivateKeyTagShape);
    assert.equal(privateKeyTags.find((t) => t.tagId === response.privateKeyTagId)?.tagName, name);
    assert.equal(privateKeyTags.find((t) => t.tagId === tag.id)?.tagName, tag.name);

    await assertRequestError(sdk.createPrivateKeyTag({ privateKeyTagName: name, privateKeyIds: [] }),
      { code: 3, turnkeyErrorCode: "REQUEST_INVALID", message: /already exists/ });
    tag.second = response.privateKeyTagId;
  });

  test("updatePrivateKeyTag renames, adds and removes keys", async () => {
    const newName = unique("pk-tag-renamed");
    const response = await sdk.updatePrivateKeyTag({
      privateKeyTagId: tag.id, newPrivateKeyTagName: newName, addPrivateKeyIds: [ids.sol],
      removePrivateKeyIds: [ids.eth],
    });
    const result = assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG", intentKey: "updatePrivateKeyTagIntent",
      resultKey: "updatePrivateKeyTagResult",
    });
    assert.equal(result.privateKeyTagId, tag.id);
    assert.deepEqual(await tagIdsOf(ids.eth), []);
    assert.deepEqual((await tagIdsOf(ids.sol)).sort(), [tag.id, tag.second].sort());
    const { privateKeyTags } = await sdk.listPrivateKeyTags({});
    assert.equal(privateKeyTags.find((t) => t.tagId === tag.id).tagName, newName);
    tag.name = newName;
  });

  test("updatePrivateKeyTag is all or nothing: an unknown key id fails it and changes nothing", async () => {
    const before = await tagIdsOf(ids.p256);
    const tagsBefore = (await sdk.listPrivateKeyTags({})).privateKeyTags;
    await assertRequestError(sdk.updatePrivateKeyTag({
      privateKeyTagId: tag.id,
      newPrivateKeyTagName: unique("pk-tag-never"),
      addPrivateKeyIds: [ids.p256, crypto.randomUUID()],
      removePrivateKeyIds: [ids.sol],
    }), { code: 5, message: /private key/ });
    assert.deepEqual(await tagIdsOf(ids.p256), before, "the known key was not added");
    assert.ok((await tagIdsOf(ids.sol)).includes(tag.id), "the removal was not applied");
    assert.deepEqual((await sdk.listPrivateKeyTags({})).privateKeyTags, tagsBefore, "the rename was not applied");

    await assertRequestError(sdk.updatePrivateKeyTag({
      privateKeyTagId: crypto.randomUUID(), addPrivateKeyIds: [], removePrivateKeyIds: [],
    }), { code: 5 });
    await assertRequestError(sdk.updatePrivateKeyTag({
      privateKeyTagId: tag.id, newPrivateKeyTagName: (await sdk.listPrivateKeyTags({})).privateKeyTags
        .find((t) => t.tagId === tag.second).tagName, addPrivateKeyIds: [], removePrivateKeyIds: [],
    }), { code: 3, turnkeyErrorCode: "REQUEST_INVALID", message: /already exists/ });
  });

  test("deletePrivateKeyTags removes the tags from the list and from their keys", async () => {
    const response = await sdk.deletePrivateKeyTags({ privateKeyTagIds: [tag.id, tag.second] });
    const result = assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_DELETE_PRIVATE_KEY_TAGS", intentKey: "deletePrivateKeyTagsIntent",
      resultKey: "deletePrivateKeyTagsResult",
    });
    assert.deepEqual(result.privateKeyTagIds, [tag.id, tag.second]);
    assert.deepEqual([...result.privateKeyIds].sort(), [ids.sol, ids.p256].sort(), "the keys that carried them");
    const { privateKeyTags } = await sdk.listPrivateKeyTags({});
    assert.ok(!privateKeyTags.some((t) => t.tagId === tag.id || t.tagId === tag.second));
    assert.deepEqual(await tagIdsOf(ids.sol), []);
    assert.deepEqual(await tagIdsOf(ids.p256), []);
    await assertRequestError(sdk.deletePrivateKeyTags({ privateKeyTagIds: [tag.id] }), { code: 5 });
  });

  test("deletePrivateKeys needs deleteWithoutExport for keys never exported; then they are gone", async () => {
    const all = Object.values(ids);
    await assertRequestError(sdk.deletePrivateKeys({ privateKeyIds: all }),
      { code: 3, turnkeyErrorCode: "REQUEST_INVALID", message: /not been exported/ });
    assertPrivateKeyShape((await sdk.getPrivateKey({ privateKeyId: ids.eth })).privateKey);
    await assertRequestError(sdk.deletePrivateKeys({ privateKeyIds: [ids.eth, crypto.randomUUID()],
      deleteWithoutExport: true }), { code: 5 });
    assertPrivateKeyShape((await sdk.getPrivateKey({ privateKeyId: ids.eth })).privateKey);

    const response = await sdk.deletePrivateKeys({ privateKeyIds: all, deleteWithoutExport: true });
    const result = assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_DELETE_PRIVATE_KEYS", intentKey: "deletePrivateKeysIntent",
      resultKey: "deletePrivateKeysResult",
    });
    assert.deepEqual(result.privateKeyIds, all);
    for (const id of all) {
      await assertRequestError(sdk.getPrivateKey({ privateKeyId: id }), { code: 5 });
    }
    const { privateKeys } = await sdk.getPrivateKeys();
    assert.ok(!privateKeys.some((k) => all.includes(k.privateKeyId)));
  });
});
