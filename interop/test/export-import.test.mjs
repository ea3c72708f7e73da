// Export and import with the official @turnkey/crypto against Keyhaven's bundle signer, fetched from
// GET /public/v1/discovery/signer and passed as dangerouslyOverrideSignerPublicKey: decryptExportBundle opens
// export_wallet (mnemonic), export_wallet_account and export_private_key bundles (hex and keyFormat "SOLANA") and the
// keys reproduce the addresses; encryptWalletToBundle / encryptPrivateKeyToBundle produce what import_wallet /
// import_private_key accept, and the imported wallet derives the BIP-39 test vector's addresses.
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import {
  decryptExportBundle,
  encryptPrivateKeyToBundle,
  encryptWalletToBundle,
  generateP256KeyPair,
} from "@turnkey/crypto";
import { ed25519 } from "@noble/curves/ed25519";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import bs58 from "bs58";
import {
  assertCompleted,
  assertRequestError,
  baseUrl,
  organizationId,
  sdkClientFor,
  unique,
} from "../lib/keyhaven.mjs";

const sdk = sdkClientFor();

// BIP-39's first English vector (entropy 00…00): its m/44'/60'/0'/0/0 Ethereum address and m/44'/501'/0'/0' Solana
// address, as every BIP-39/BIP-32/SLIP-0010 wallet derives them.
const ABANDON = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
const ABANDON_ETH = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94";
const ABANDON_SOL = "HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk";

const ETH_ACCOUNT = {
  curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0",
  addressFormat: "ADDRESS_FORMAT_ETHEREUM",
};
const SOL_ACCOUNT = {
  curve: "CURVE_ED25519", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/501'/0'/0'",
  addressFormat: "ADDRESS_FORMAT_SOLANA",
};

let signer;

before(async () => {
  const response = await fetch(`${baseUrl}/public/v1/discovery/signer`);
  assert.equal(response.status, 200);
  signer = (await response.json()).publicKey;
  assert.match(signer, /^04[0-9a-f]{128}$/);
});

const open = (exportBundle, target, options = {}) => decryptExportBundle({
  exportBundle, embeddedKey: target.privateKey, organizationId, dangerouslyOverrideSignerPublicKey: signer,
  returnMnemonic: false, ...options,
});

describe("export through @turnkey/sdk-server, opened with @turnkey/crypto", () => {
  let walletId;
  let eth;
  let sol;

  before(async () => {
    const created = await sdk.createWallet({ walletName: unique("export"), accounts: [ETH_ACCOUNT, SOL_ACCOUNT] });
    walletId = created.walletId;
    [eth, sol] = created.addresses;
  });

  test("exportWallet: decryptExportBundle returns the mnemonic, which derives the wallet's address", async () => {
    const target = generateP256KeyPair();
    const response = await sdk.exportWallet({ walletId, targetPublicKey: target.publicKeyUncompressed });
    assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_EXPORT_WALLET", intentKey: "exportWalletIntent", resultKey: "exportWalletResult",
    });
    assert.equal(response.walletId, walletId);
    const mnemonic = await open(response.exportBundle, target, { returnMnemonic: true });
    assert.equal(mnemonic.split(" ").length, 12);
    assert.equal(mnemonicToAccount(mnemonic).address, eth);
    assert.equal((await sdk.getWallet({ walletId })).wallet.exported, true);
  });

  test("exportWalletAccount: the raw key (hex) is the Ethereum account's key; compressed target key", async () => {
    const target = generateP256KeyPair();
    const response = await sdk.exportWalletAccount({ address: eth, targetPublicKey: target.publicKey });
    assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT", intentKey: "exportWalletAccountIntent",
      resultKey: "exportWalletAccountResult",
    });
    assert.equal(response.address, eth);
    const key = await open(response.exportBundle, target);
    assert.equal(privateKeyToAccount(`0x${key}`).address, eth);
  });

  test("exportWalletAccount with keyFormat SOLANA: base58(seed ‖ public key) of the Solana account", async () => {
    const target = generateP256KeyPair();
    const response = await sdk.exportWalletAccount({ address: sol, targetPublicKey: target.publicKeyUncompressed });
    const keypair = bs58.decode(await open(response.exportBundle, target, { keyFormat: "SOLANA" }));
    assert.equal(keypair.length, 64);
    assert.equal(bs58.encode(keypair.slice(32)), sol);
    assert.equal(bs58.encode(ed25519.getPublicKey(keypair.slice(0, 32))), sol);
  });

  test("exportPrivateKey: the raw key reproduces the key's Ethereum address", async () => {
    const created = await sdk.createPrivateKeys({ privateKeys: [{ privateKeyName: unique("export-pk"),
      curve: "CURVE_SECP256K1", privateKeyTags: [], addressFormats: ["ADDRESS_FORMAT_ETHEREUM"] }] });
    const { privateKeyId, addresses } = created.privateKeys[0];
    const target = generateP256KeyPair();
    const response = await sdk.exportPrivateKey({ privateKeyId, targetPublicKey: target.publicKey });
    assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_EXPORT_PRIVATE_KEY", intentKey: "exportPrivateKeyIntent",
      resultKey: "exportPrivateKeyResult",
    });
    const key = await open(response.exportBundle, target);
    assert.equal(privateKeyToAccount(`0x${key}`).address, addresses[0].address);
    assert.equal((await sdk.getPrivateKey({ privateKeyId })).privateKey.exported, true);
    await sdk.deletePrivateKeys({ privateKeyIds: [privateKeyId] });
  });

  test("decryptExportBundle refuses a bundle when the pinned signer is another key", async () => {
    const target = generateP256KeyPair();
    const response = await sdk.exportWalletAccount({ address: eth, targetPublicKey: target.publicKey });
    const other = generateP256KeyPair().publicKeyUncompressed;
    await assert.rejects(open(response.exportBundle, target, { dangerouslyOverrideSignerPublicKey: other }),
      /does not match signer key/);
    await assert.rejects(open(response.exportBundle, target, { organizationId: "another-org" }),
      /organization id does not match/);
  });

  test("a malformed target public key is a 400", async () => {
    await assertRequestError(sdk.exportWallet({ walletId, targetPublicKey: "04abcd" }),
      { code: 3, message: /targetPublicKey/ });
  });
});

describe("import through @turnkey/sdk-server, encrypted with @turnkey/crypto", () => {
  let userId;

  before(async () => {
    userId = (await sdk.getWhoami({ organizationId })).userId;
  });

  test("initImportWallet + encryptWalletToBundle + importWallet: the BIP-39 vector's addresses", async () => {
    const init = await sdk.initImportWallet({ userId });
    assertCompleted(init.activity, {
      type: "ACTIVITY_TYPE_INIT_IMPORT_WALLET", intentKey: "initImportWalletIntent",
      resultKey: "initImportWalletResult",
    });
    const encryptedBundle = await encryptWalletToBundle({
      mnemonic: ABANDON, importBundle: init.importBundle, userId, organizationId,
      dangerouslyOverrideSignerPublicKey: signer,
    });
    const walletName = unique("imported");
    const response = await sdk.importWallet({ userId, walletName, encryptedBundle,
      accounts: [ETH_ACCOUNT, SOL_ACCOUNT] });
    assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_IMPORT_WALLET", intentKey: "importWalletIntent", resultKey: "importWalletResult",
    });
    assert.deepEqual(response.addresses, [ABANDON_ETH, ABANDON_SOL]);
    const { wallet } = await sdk.getWallet({ walletId: response.walletId });
    assert.equal(wallet.imported, true);
    assert.equal(wallet.walletName, walletName);
    // The target served this one import.
    await assertRequestError(sdk.importWallet({ userId, walletName: unique("again"), encryptedBundle,
      accounts: [ETH_ACCOUNT] }), { code: 3, message: /no import target/ });
    await sdk.deleteWallets({ walletIds: [response.walletId], deleteWithoutExport: true });
  });

  test("encryptWalletToBundle refuses a target bundle when the pinned signer is another key", async () => {
    const init = await sdk.initImportWallet({ userId });
    await assert.rejects(encryptWalletToBundle({
      mnemonic: ABANDON, importBundle: init.importBundle, userId, organizationId,
      dangerouslyOverrideSignerPublicKey: generateP256KeyPair().publicKeyUncompressed,
    }), /does not match signer key/);
    // Without an override the production Turnkey signer is expected, which this bundle is not signed by.
    await assert.rejects(encryptWalletToBundle({
      mnemonic: ABANDON, importBundle: init.importBundle, userId, organizationId,
    }), /does not match signer key/);
  });

  test("initImportPrivateKey + encryptPrivateKeyToBundle + importPrivateKey (HEXADECIMAL and SOLANA)", async () => {
    const ethKey = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";
    let init = await sdk.initImportPrivateKey({ userId });
    assertCompleted(init.activity, {
      type: "ACTIVITY_TYPE_INIT_IMPORT_PRIVATE_KEY", intentKey: "initImportPrivateKeyIntent",
      resultKey: "initImportPrivateKeyResult",
    });
    let encryptedBundle = await encryptPrivateKeyToBundle({
      privateKey: `0x${ethKey}`, keyFormat: "HEXADECIMAL", importBundle: init.importBundle, userId, organizationId,
      dangerouslyOverrideSignerPublicKey: signer,
    });
    const eth = await sdk.importPrivateKey({ userId, privateKeyName: unique("imported-eth"), encryptedBundle,
      curve: "CURVE_SECP256K1", addressFormats: ["ADDRESS_FORMAT_ETHEREUM"] });
    assertCompleted(eth.activity, {
      type: "ACTIVITY_TYPE_IMPORT_PRIVATE_KEY", intentKey: "importPrivateKeyIntent",
      resultKey: "importPrivateKeyResult",
    });
    assert.equal(eth.addresses[0].address, privateKeyToAccount(`0x${ethKey}`).address);
    assert.equal((await sdk.getPrivateKey({ privateKeyId: eth.privateKeyId })).privateKey.imported, true);

    const seed = generateP256KeyPair().privateKey; // any 32 random bytes make an Ed25519 seed
    const solanaKey = bs58.encode(new Uint8Array([...Buffer.from(seed, "hex"),
      ...ed25519.getPublicKey(Buffer.from(seed, "hex"))]));
    init = await sdk.initImportPrivateKey({ userId });
    encryptedBundle = await encryptPrivateKeyToBundle({
      privateKey: solanaKey, keyFormat: "SOLANA", importBundle: init.importBundle, userId, organizationId,
      dangerouslyOverrideSignerPublicKey: signer,
    });
    const sol = await sdk.importPrivateKey({ userId, privateKeyName: unique("imported-sol"), encryptedBundle,
      curve: "CURVE_ED25519", addressFormats: ["ADDRESS_FORMAT_SOLANA"] });
    assert.equal(sol.addresses[0].address, bs58.encode(ed25519.getPublicKey(Buffer.from(seed, "hex"))));
    await sdk.deletePrivateKeys({ privateKeyIds: [eth.privateKeyId, sol.privateKeyId], deleteWithoutExport: true });
  });
});
