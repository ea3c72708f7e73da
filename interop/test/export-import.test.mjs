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
