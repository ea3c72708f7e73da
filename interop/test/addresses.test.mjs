// Every one of Turnkey's 38 address formats, recomputed independently: one wallet gets an account in each format
// (paths from the SDK's own DEFAULT_*_ACCOUNTS where it has them), and each account's address is rebuilt from the
// account's reported `publicKey` with the chains' well-known npm libraries: viem (Ethereum), @cosmjs/amino (Cosmos,
// Sei), bitcoinjs-lib (Bitcoin, Dogecoin, and Base58Check for Tron), ripple-keypairs (XRP), bech32 (Spark), bs58
// (Solana), @mysten/sui (Sui), node's SHA3-256 (Aptos), @stellar/stellar-base (Stellar), @ton/ton (TON wallet
// contracts) and @noble/curves (raw keys). The rules are those of docs/reference/addresses.md; where
// Turnkey's choice is undocumented (P2SH, P2WSH, the TON string form) the test pins Keyhaven's documented choice.
// create_sub_organization with a `wallet` is checked the same way.
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { after, before, describe, test } from "node:test";
import * as bitcoin from "bitcoinjs-lib";
import ecc from "@bitcoinerlab/secp256k1";
import { bech32m } from "bech32";
import bs58 from "bs58";
import { pubkeyToAddress } from "@cosmjs/amino";
import { toBase64 } from "@cosmjs/encoding";
import { Ed25519PublicKey } from "@mysten/sui/keypairs/ed25519";
import { ed25519 } from "@noble/curves/ed25519";
import { p256 } from "@noble/curves/p256";
import { secp256k1 } from "@noble/curves/secp256k1";
import { StrKey } from "@stellar/stellar-base";
import { Address } from "@ton/core";
import { WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from "@ton/ton";
import rippleKeypairs from "ripple-keypairs";
import { createAccount } from "@turnkey/viem";
import { recoverMessageAddress } from "viem";
import { publicKeyToAddress } from "viem/accounts";
import {
  DEFAULT_APTOS_ACCOUNTS,
  DEFAULT_COSMOS_ACCOUNTS,
  DEFAULT_DOGE_MAINNET_ACCOUNTS,
  DEFAULT_DOGE_TESTNET_ACCOUNTS,
  DEFAULT_ETHEREUM_ACCOUNTS,
  DEFAULT_SEI_ACCOUNTS,
  DEFAULT_SOLANA_ACCOUNTS,
  DEFAULT_SUI_ACCOUNTS,
  DEFAULT_TON_V3R2_ACCOUNTS,
  DEFAULT_TON_V4R2_ACCOUNTS,
  DEFAULT_TRON_ACCOUNTS,
  DEFAULT_XLM_ACCOUNTS,
  addressFormatConfig,
  defaultXrpAccountAtIndex,
} from "@turnkey/sdk-server";
import * as sdkHelpers from "@turnkey/sdk-server";
import {
  apiKeyParams,
  assertCompleted,
  assertRequestError,
  assertWalletAccountShape,
  newKeyPair,
  sdkClientFor,
  unique,
} from "../lib/keyhaven.mjs";

bitcoin.initEccLib(ecc);

const sdk = sdkClientFor();
const hex = (bytes) => Buffer.from(bytes).toString("hex");
const bytes = (hexString) => new Uint8Array(Buffer.from(hexString, "hex"));

const account = (curve, path, addressFormat) => ({ curve, pathFormat: "PATH_FORMAT_BIP32", path, addressFormat });

// --- the independent address computations, from the account's publicKey --------------------------------------------

const uncompressed = (curve, publicKey) => curve.ProjectivePoint.fromHex(publicKey).toHex(false);

const bitcoinNetworks = {
  MAINNET: bitcoin.networks.bitcoin,
  TESTNET: bitcoin.networks.testnet,
  SIGNET: bitcoin.networks.testnet, // signet shares testnet's version bytes and "tb"
  REGTEST: bitcoin.networks.regtest,
};
const dogeNetworks = {
  MAINNET: { ...bitcoin.networks.bitcoin, pubKeyHash: 0x1e, scriptHash: 0x16 },
  TESTNET: { ...bitcoin.networks.testnet, pubKeyHash: 0x71, scriptHash: 0xc4 },
};

const bitcoinAddress = (script, network, pk) => {
  const pubkey = bytes(pk);
  switch (script) {
    case "P2PKH":
      return bitcoin.payments.p2pkh({ pubkey, network }).address;
    case "P2WPKH":
      return bitcoin.payments.p2wpkh({ pubkey, network }).address;
    case "P2TR": // BIP-86 key path: the x-only internal key, tweaked by bitcoinjs
      return bitcoin.payments.p2tr({ internalPubkey: pubkey.subarray(1, 33), network }).address;
    case "P2SH": // P2SH-P2WPKH (BIP-49), Keyhaven's documented choice
      return bitcoin.payments.p2sh({ redeem: bitcoin.payments.p2wpkh({ pubkey, network }), network }).address;
    case "P2WSH": // wsh(pk(K)): <pk> OP_CHECKSIG, Keyhaven's documented choice
      return bitcoin.payments.p2wsh({
        redeem: { output: bitcoin.script.compile([pubkey, bitcoin.opcodes.OP_CHECKSIG]) }, network,
      }).address;
    default:
      throw new Error(`no script ${script}`);
  }
};

const tonWallets = { V3R2: WalletContractV3R2, V4R2: WalletContractV4, V5R1: WalletContractV5R1 };

/** addressFormat → (publicKey hex, curve) → the address the chain's library derives. */
function expectedAddress(format, publicKey, curve) {
  const name = format.replace(/^ADDRESS_FORMAT_/, "");
  const btc = name.match(/^BITCOIN_(MAINNET|TESTNET|SIGNET|REGTEST)_(P2PKH|P2WPKH|P2TR|P2SH|P2WSH)$/);
  if (btc) {
    return bitcoinAddress(btc[2], bitcoinNetworks[btc[1]], publicKey);
  }
  const doge = name.match(/^DOGE_(MAINNET|TESTNET)$/);
  if (doge) {
    return bitcoin.payments.p2pkh({ pubkey: bytes(publicKey), network: dogeNetworks[doge[1]] }).address;
  }
  const ton = name.match(/^TON_(V3R2|V4R2|V5R1)$/);
  if (ton) {
    // Bounceable, url-safe, mainnet ("EQ…"): @ton/core's default string form.
    return tonWallets[ton[1]].create({ workchain: 0, publicKey: Buffer.from(publicKey, "hex") }).address.toString();
  }
  const spark = { SPARK_MAINNET: "spark", SPARK_REGTEST: "sparkrt" }[name];
  if (spark) {
    // SparkAddress { bytes identity_public_key = 1 } as protobuf, bech32m.
    const payload = Uint8Array.from([0x0a, 0x21, ...bytes(publicKey)]);
    return bech32m.encode(spark, bech32m.toWords(payload), 1024);
  }
  switch (name) {
    case "ETHEREUM":
      return publicKeyToAddress(`0x${uncompressed(secp256k1, publicKey)}`);
    case "TRON": {
      const ethereum = publicKeyToAddress(`0x${uncompressed(secp256k1, publicKey)}`);
      return bitcoin.address.toBase58Check(bytes(ethereum.slice(2)), 0x41);
    }
    case "COSMOS":
    case "SEI":
      return pubkeyToAddress({ type: "tendermint/PubKeySecp256k1", value: toBase64(bytes(publicKey)) },
        name.toLowerCase());
    case "XRP":
      return rippleKeypairs.deriveAddress(publicKey.toUpperCase());
    case "SOLANA":
      return bs58.encode(bytes(publicKey));
    case "SUI":
      return new Ed25519PublicKey(bytes(publicKey)).toSuiAddress();
    case "APTOS": // the legacy Ed25519 authentication key: SHA3-256(pk ‖ 0x00)
      return `0x${crypto.createHash("sha3-256").update(Buffer.concat([Buffer.from(publicKey, "hex"),
        Buffer.from([0])])).digest("hex")}`;
    case "XLM":
      return StrKey.encodeEd25519PublicKey(Buffer.from(publicKey, "hex"));
    case "COMPRESSED":
      return curve === "CURVE_ED25519" ? publicKey
        : (curve === "CURVE_P256" ? p256 : secp256k1).ProjectivePoint.fromHex(publicKey).toHex(true);
    case "UNCOMPRESSED":
      return uncompressed(curve === "CURVE_P256" ? p256 : secp256k1, publicKey);
    default:
      throw new Error(`no independent computation for ${format}`);
  }
}

// --- the accounts -------------------------------------------------------------------------------------------------

const bitcoinAccounts = ["MAINNET", "TESTNET", "SIGNET", "REGTEST"].flatMap((network) =>
  ["P2PKH", "P2WPKH", "P2TR", "P2SH", "P2WSH"].map((script) => {
    const helper = sdkHelpers[`DEFAULT_BITCOIN_${network}_${script}_ACCOUNTS`];
    assert.ok(helper, `the SDK has DEFAULT_BITCOIN_${network}_${script}_ACCOUNTS`);
    return helper[0];
  }));

const secp256k1Accounts = [
  ...DEFAULT_ETHEREUM_ACCOUNTS,
  ...DEFAULT_COSMOS_ACCOUNTS,
  ...DEFAULT_TRON_ACCOUNTS,
  ...DEFAULT_SEI_ACCOUNTS,
  defaultXrpAccountAtIndex(0),
  ...DEFAULT_DOGE_MAINNET_ACCOUNTS,
  ...DEFAULT_DOGE_TESTNET_ACCOUNTS,
  ...bitcoinAccounts,
  // The SDK's Spark defaults copy P2TR's m/86'; Spark's identity key lives at m/8797555'/0'/0'.
  account("CURVE_SECP256K1", "m/8797555'/0'/0'", "ADDRESS_FORMAT_SPARK_MAINNET"),
  account("CURVE_SECP256K1", "m/8797555'/0'/0'", "ADDRESS_FORMAT_SPARK_REGTEST"),
  account("CURVE_SECP256K1", "m/0'/0", "ADDRESS_FORMAT_COMPRESSED"),
  account("CURVE_SECP256K1", "m/0'/0", "ADDRESS_FORMAT_UNCOMPRESSED"),
  // The Ethereum account's key again, in two raw forms: one derivation, one key.
  account("CURVE_SECP256K1", DEFAULT_ETHEREUM_ACCOUNTS[0].path, "ADDRESS_FORMAT_COMPRESSED"),
  account("CURVE_SECP256K1", DEFAULT_ETHEREUM_ACCOUNTS[0].path, "ADDRESS_FORMAT_UNCOMPRESSED"),
];
const ed25519Accounts = [
  ...DEFAULT_SOLANA_ACCOUNTS,
  ...DEFAULT_SUI_ACCOUNTS,
  ...DEFAULT_APTOS_ACCOUNTS,
  ...DEFAULT_XLM_ACCOUNTS,
  ...DEFAULT_TON_V3R2_ACCOUNTS,
  ...DEFAULT_TON_V4R2_ACCOUNTS,
  // The SDK has no V5R1 default; the V3R2/V4R2 path gives all three contracts the same key.
  account("CURVE_ED25519", DEFAULT_TON_V3R2_ACCOUNTS[0].path, "ADDRESS_FORMAT_TON_V5R1"),
  account("CURVE_ED25519", "m/0'/0'", "ADDRESS_FORMAT_COMPRESSED"),
];
const p256Accounts = [
  account("CURVE_P256", "m/0'/0", "ADDRESS_FORMAT_COMPRESSED"),
  account("CURVE_P256", "m/0'/0", "ADDRESS_FORMAT_UNCOMPRESSED"),
];
const allAccounts = [...secp256k1Accounts, ...ed25519Accounts, ...p256Accounts];

describe("addresses of every format, recomputed from the public key with the chains' npm libraries", () => {
  let walletId;
  let created;
  let listed;
  const cleanup = { wallets: [] };

  before(async () => {
    const response = await sdk.createWallet({ walletName: unique("address-wallet"), accounts: allAccounts });
    assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_CREATE_WALLET", intentKey: "createWalletIntent", resultKey: "createWalletResult",
    });
    walletId = response.walletId;
    cleanup.wallets.push(walletId);
    created = response.addresses;
    listed = (await sdk.getWalletAccounts({ walletId, paginationOptions: { limit: "100" } })).accounts;
  });

  after(async () => {
    if (cleanup.wallets.length > 0) {
      await sdk.deleteWallets({ walletIds: cleanup.wallets, deleteWithoutExport: true });
    }
  });

  test("the accounts cover all 38 address formats the SDK knows", () => {
    const formats = new Set(allAccounts.map((a) => a.addressFormat));
    assert.deepEqual([...formats].sort(), Object.keys(addressFormatConfig).sort());
    assert.equal(formats.size, 38);
    assert.equal(created.length, allAccounts.length);
    assert.equal(listed.length, allAccounts.length);
  });

  test("public keys: compressed SEC1 for secp256k1 and P-256, raw 32 bytes for Ed25519", () => {
    for (const a of listed) {
      assertWalletAccountShape(a);
      if (a.curve === "CURVE_ED25519") {
        assert.match(a.publicKey, /^[0-9a-f]{64}$/, `${a.addressFormat} ${a.path}`);
      } else {
        assert.match(a.publicKey, /^0[23][0-9a-f]{64}$/, `${a.addressFormat} ${a.path}`);
        (a.curve === "CURVE_P256" ? p256 : secp256k1).ProjectivePoint.fromHex(a.publicKey); // on the curve
      }
    }
    const keyOf = (curve, path) => new Set(listed.filter((a) => a.curve === curve && a.path === path)
      .map((a) => a.publicKey));
    assert.equal(keyOf("CURVE_SECP256K1", DEFAULT_ETHEREUM_ACCOUNTS[0].path).size, 1, "one path, one key");
    assert.equal(keyOf("CURVE_ED25519", DEFAULT_TON_V3R2_ACCOUNTS[0].path).size, 1);
    assert.equal(keyOf("CURVE_P256", "m/0'/0").size, 1);
    assert.notDeepEqual(keyOf("CURVE_SECP256K1", "m/0'/0"), keyOf("CURVE_P256", "m/0'/0"),
      "the same path on another curve is another key");
    assert.equal(new Set(listed.map((a) => `${a.curve} ${a.path}`)).size,
      new Set(listed.map((a) => a.publicKey)).size, "distinct derivations give distinct keys");
  });

  for (const [i, requested] of allAccounts.entries()) {
    test(`${requested.addressFormat} (${requested.curve}, ${requested.path})`, () => {
      const a = listed[i];
      assert.equal(a.addressFormat, requested.addressFormat);
      assert.equal(a.curve, requested.curve);
      assert.equal(a.path, requested.path);
      assert.equal(a.address, created[i], "list_wallet_accounts and create_wallet agree");
      assert.equal(a.address, expectedAddress(a.addressFormat, a.publicKey, a.curve));
    });
  }

  test("get_wallet_account and signWith accept other spellings of TON and Ethereum addresses", async () => {
    const ton = listed.find((a) => a.addressFormat === "ADDRESS_FORMAT_TON_V4R2");
    const parsed = Address.parse(ton.address);
    assert.ok(Address.isFriendly(ton.address) && Address.parseFriendly(ton.address).isBounceable);
    const spellings = [
      parsed.toString({ bounceable: false }), // UQ…, what Tonkeeper shows
      parsed.toRawString(), // 0:<hex>
      parsed.toString({ urlSafe: false }), // EQ… with + and /
    ];
    for (const spelling of spellings) {
      const { account: found } = await sdk.getWalletAccount({ walletId, address: spelling });
      assert.equal(found.walletAccountId, ton.walletAccountId, spelling);
    }
    const signed = await sdk.signRawPayload({
      signWith: spellings[0], payload: "c0ffee", encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_NOT_APPLICABLE",
    });
    assert.ok(ed25519.verify(bytes(signed.r + signed.s), bytes("c0ffee"), bytes(ton.publicKey)));

    const ethereum = listed.find((a) => a.addressFormat === "ADDRESS_FORMAT_ETHEREUM");
    const { account: byLowercase } = await sdk.getWalletAccount({ walletId, address: ethereum.address.toLowerCase() });
    assert.equal(byLowercase.walletAccountId, ethereum.walletAccountId);
    assert.equal(byLowercase.address, ethereum.address, "reported checksummed whatever the spelling asked");

    // Base58 is case-sensitive: another spelling of a Solana address is another (unknown) address.
    const solana = listed.find((a) => a.addressFormat === "ADDRESS_FORMAT_SOLANA");
    const swapped = [...solana.address].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))
      .join("");
    await assertRequestError(sdk.getWalletAccount({ walletId, address: swapped }), { code: 5 });
  });

  test("create_sub_organization with a wallet returns its addresses; its root user signs, the parent cannot",
    async () => {
    const subRoot = { name: unique("sub-root"), key: newKeyPair() };
    const walletAccounts = [
      ...DEFAULT_ETHEREUM_ACCOUNTS, ...DEFAULT_SOLANA_ACCOUNTS, ...sdkHelpers.DEFAULT_BITCOIN_MAINNET_P2WPKH_ACCOUNTS,
    ];
    const response = await sdk.createSubOrganization({
      subOrganizationName: unique("sub-with-wallet"),
      rootUsers: [{
        userName: subRoot.name, apiKeys: [apiKeyParams("sub root key", subRoot.key)], authenticators: [],
        oauthProviders: [],
      }],
      rootQuorumThreshold: 1,
      wallet: { walletName: unique("sub-wallet"), accounts: walletAccounts, mnemonicLength: 12 },
    });
    const result = assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8", intentKey: "createSubOrganizationIntentV8",
      resultKey: "createSubOrganizationResultV8",
    });
    assert.deepEqual(response.wallet, result.wallet);
    assert.equal(typeof result.wallet.walletId, "string");
    assert.equal(result.wallet.addresses.length, walletAccounts.length);
    const subOrganizationId = result.subOrganizationId;

    const sub = sdkClientFor(subRoot.key, subOrganizationId);
    const { wallets } = await sub.getWallets();
    assert.deepEqual(wallets.map((w) => w.walletId), [result.wallet.walletId]);
    const { accounts } = await sub.getWalletAccounts({ walletId: result.wallet.walletId });
    assert.deepEqual(accounts.map((a) => a.address), result.wallet.addresses);
    for (const a of accounts) {
      assert.equal(a.organizationId, subOrganizationId);
      assert.equal(a.address, expectedAddress(a.addressFormat, a.publicKey, a.curve), a.addressFormat);
    }
    // The parent can read the sub-organization's wallet, but it is not one of its own.
    const fromParent = await sdk.getWalletAccounts({
      organizationId: subOrganizationId, walletId: result.wallet.walletId,
    });
    assert.deepEqual(fromParent.accounts, accounts);
    assert.ok(!(await sdk.getWallets()).wallets.some((w) => w.walletId === result.wallet.walletId));

    const signer = await createAccount({ client: sub, organizationId: subOrganizationId,
      signWith: result.wallet.addresses[0] });
    const signature = await signer.signMessage({ message: "from the sub-organization" });
    assert.equal(await recoverMessageAddress({ message: "from the sub-organization", signature }),
      result.wallet.addresses[0]);

    // The parent cannot sign with the sub-organization's keys, neither there nor from its own organization.
    const payload = { signWith: result.wallet.addresses[0], payload: "00", encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_KECCAK256" };
    await assertRequestError(sdk.signRawPayload({ ...payload, organizationId: subOrganizationId }),
      { code: 3, turnkeyErrorCode: "INVALID_ACTIVITY_CALLER" });
    await assertRequestError(sdk.signRawPayload(payload), { code: 5 });
  });
});
